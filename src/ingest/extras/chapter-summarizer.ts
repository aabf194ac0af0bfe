import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { generateStructured } from '../../models/chat/structured-output.ts';
import type { SummaryMethod } from '../../store/document-extras.ts';
import { extractiveSummary } from './extractive-summary.ts';

export interface ChapterToSummarize {
  docTitle: string;
  title: string;
  text: string;
}

/** Summarises one chapter; `method` labels every summary it makes. */
export interface ChapterSummarizer {
  readonly method: SummaryMethod;
  summarize(chapter: ChapterToSummarize): Promise<string>;
}

export const extractiveSummarizer: ChapterSummarizer = {
  method: 'extractive',
  summarize: async (chapter) => extractiveSummary(chapter.text),
};

/** Characters of a chapter sent to the model; longer chapters are cut, the summary says what the start says. */
const MAX_PROMPT_CHARS = 8000;
const summarySchema = z.object({ summary: z.string().trim().min(1).max(2000) });

/** A chat model's summary of each chapter, validated by schema (retried on invalid output, then a typed error). */
export function llmSummarizer(chat: { id: string; model: BaseChatModel }, maxSchemaRetries = 2): ChapterSummarizer {
  return {
    method: `llm:${chat.id}`,
    async summarize(chapter) {
      const result = await generateStructured({
        model: chat.model,
        schema: summarySchema,
        name: 'chapter_summary',
        maxRetries: maxSchemaRetries,
        messages: [
          new SystemMessage(
            'Summarise the chapter in at most three sentences. Keep names, identifiers, amounts and dates exactly as written; add nothing the chapter does not say.',
          ),
          new HumanMessage(
            `Document: ${chapter.docTitle}\nChapter: ${chapter.title || '(untitled)'}\n\n${chapter.text.slice(0, MAX_PROMPT_CHARS)}`,
          ),
        ],
      });
      return result.summary;
    },
  };
}
