import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import type { EvalCase } from '../cases/eval-case.ts';
import { formatZodIssues } from '../cases/read-cases.ts';
import { groupName, type ConversionScope, type ConvertedSet } from './converted-set.ts';
import { paragraphDocId } from './musique.ts';

const questionSchema = z.object({
  _id: z.string().min(1),
  question: z.string().min(1),
  answer: z.string(),
  type: z.string().optional(),
  level: z.string().optional(),
  /** `[title, sentence index]` pairs: the facts the answer rests on. */
  supporting_facts: z.array(z.tuple([z.string(), z.number().int()])).default([]),
  /** `[title, sentences]` pairs: the gold paragraphs among the distractors. */
  context: z.array(z.tuple([z.string(), z.array(z.string())])).min(1),
});
export type HotpotQaQuestion = z.infer<typeof questionSchema>;

/** HotpotQA's distractor files are one JSON array; JSON lines are taken too. */
export function parseHotpotQaQuestions(text: string, file: string): HotpotQaQuestion[] {
  const trimmed = text.trim();
  let values: unknown[];
  try {
    values = trimmed.startsWith('[')
      ? (JSON.parse(trimmed) as unknown[])
      : trimmed
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as unknown);
  } catch (cause) {
    throw new ValidationError(`${file} is not JSON or JSON lines.`, {
      cause,
      hint: 'Pass a HotpotQA distractor file such as hotpot_dev_distractor_v1.json.',
    });
  }
  return values.map((value, index) => {
    const parsed = questionSchema.safeParse(value);
    if (!parsed.success)
      throw new ValidationError(
        `${file}: question ${index + 1} is not a HotpotQA question: ${formatZodIssues(parsed.error)}.`,
        { hint: 'Each question needs _id, question, answer, context [[title, [sentences]]] and supporting_facts.' },
      );
    return parsed.data;
  });
}

export interface HotpotQaOptions {
  limit?: number;
  /** `question` (default): each question sees its own ten paragraphs, the distractor setting; `shared`: all of them. */
  scope?: ConversionScope;
}

/** A paragraph as Markdown: the title in front matter and as the heading, its sentences joined as HotpotQA wrote them. */
const paragraphMarkdown = (title: string, sentences: readonly string[]): string =>
  `---\ntitle: ${JSON.stringify(title)}\n---\n# ${title.replace(/\s+/g, ' ')}\n\n${sentences.join('').trim()}\n`;

/**
 * HotpotQA (distractor) → cases over its paragraphs, one document per distinct paragraph (doc ids as MuSiQue's): the
 * paragraphs the supporting facts name are the relevant and expected cited documents, the answer must be contained.
 */
export async function convertHotpotQa(src: string, options: HotpotQaOptions = {}): Promise<ConvertedSet> {
  if (!existsSync(src) || statSync(src).isDirectory())
    throw new ValidationError(`${src} is not a HotpotQA questions file.`, {
      hint: 'Pass the distractor JSON file itself.',
    });
  const questions = parseHotpotQaQuestions(await readFile(src, 'utf8'), src).slice(0, options.limit);
  const scope = options.scope ?? 'question';
  const documents = new Map<string, { content: string; groups: Set<string> }>();
  const cases: EvalCase[] = [];
  for (const question of questions) {
    const group = groupName('hotpotqa', question._id);
    const docIdOfTitle = new Map<string, string>();
    for (const [title, sentences] of question.context) {
      const docId = paragraphDocId({ title, paragraph_text: sentences.join('') });
      docIdOfTitle.set(title, docId);
      const document = documents.get(docId) ?? {
        content: paragraphMarkdown(title, sentences),
        groups: new Set<string>(),
      };
      document.groups.add(group);
      documents.set(docId, document);
    }
    const supporting = [
      ...new Set(
        question.supporting_facts
          .map(([title]) => docIdOfTitle.get(title))
          .filter((docId): docId is string => docId !== undefined),
      ),
    ];
    cases.push({
      id: `hotpotqa-${question._id}`,
      user: 'hotpotqa',
      groups: scope === 'question' ? [group] : [],
      history: [],
      question: question.question,
      tags: ['hotpotqa', ...(question.type ? [question.type] : []), ...(question.level ? [question.level] : [])],
      expect: {
        answerable: true,
        ...(supporting.length ? { relevant_docs: supporting, cite_docs: supporting } : {}),
        ...(question.answer.trim() ? { answer_contains: [question.answer.trim()] } : {}),
      },
    });
  }
  const files = [...documents.entries()].map(([docId, { content, groups }]) => ({
    docId,
    content,
    ...(scope === 'question' ? { acl: [...groups].map((group) => `group:${group}`) } : {}),
  }));
  return { cases, files };
}
