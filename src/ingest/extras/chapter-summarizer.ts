import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
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
      // LangChain loads when a model summarises, not with every ingest (the extractive summarizer needs none of it).
      const [{ HumanMessage, SystemMessage }, { generateStructured }] = await Promise.all([
        import('@langchain/core/messages'),
        import('../../models/chat/structured-output.ts'),
      ]);
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
