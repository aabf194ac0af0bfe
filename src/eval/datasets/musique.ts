import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import type { EvalCase } from '../cases/eval-case.ts';
import { formatZodIssues } from '../cases/read-cases.ts';
import { groupName, type ConversionScope, type ConvertedSet } from './converted-set.ts';

const paragraphSchema = z.object({
  idx: z.number().int(),
  title: z.string(),
  paragraph_text: z.string(),
  is_supporting: z.boolean(),
});
const questionSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  answer: z.string(),
  answer_aliases: z.array(z.string()).default([]),
  answerable: z.boolean().default(true),
  paragraphs: z.array(paragraphSchema).min(1),
  question_decomposition: z
    .array(z.object({ paragraph_support_idx: z.number().int().nullable().optional() }).passthrough())
    .default([]),
});
export type MusiqueQuestion = z.infer<typeof questionSchema>;
type Paragraph = z.infer<typeof paragraphSchema>;

/** The questions file: a JSON array (HippoRAG's `musique_*.json`) or JSON lines (MuSiQue's own `*.jsonl`). */
export function parseMusiqueQuestions(text: string, file: string): MusiqueQuestion[] {
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
      hint: 'Pass MuSiQue questions with their paragraphs (e.g. musique_train.json).',
    });
  }
  return values.map((value, index) => {
    const parsed = questionSchema.safeParse(value);
    if (!parsed.success)
      throw new ValidationError(
        `${file}: question ${index + 1} is not a MuSiQue question: ${formatZodIssues(parsed.error)}.`,
        {
          hint: 'Each question needs id, question, answer and paragraphs [{idx, title, paragraph_text, is_supporting}].',
        },
      );
    return parsed.data;
  });
}

/** The questions file inside a dataset folder (`musique_*.json` other than the corpus, or `*.jsonl`), or the file itself. */
function questionsFileOf(src: string): string {
  if (!existsSync(src))
    throw new ValidationError(`${src} does not exist.`, { hint: 'Pass the MuSiQue folder or its questions file.' });
  if (!statSync(src).isDirectory()) return src;
  for (const name of [
    'musique_train.json',
    'musique_dev.json',
    'musique_ans_v1.0_dev.jsonl',
    'musique_ans_v1.0_train.jsonl',
  ]) {
    if (existsSync(join(src, name))) return join(src, name);
  }
  throw new ValidationError(`${src} holds no MuSiQue questions file.`, {
    hint: 'Expected musique_train.json (HippoRAG layout) or musique_ans_v1.0_*.jsonl; or pass the file.',
  });
}

const slug = (title: string): string =>
  title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '') || 'untitled';

/**
 * A paragraph's doc id: readable (its title) and stable (a hash of title and text), so the same paragraph shared by
 * several questions is one document, and two paragraphs of one article are two.
 */
export function paragraphDocId(paragraph: Pick<Paragraph, 'title' | 'paragraph_text'>): string {
  const hash = createHash('sha1').update(`${paragraph.title}\n${paragraph.paragraph_text}`).digest('hex').slice(0, 10);
  return `paragraphs/${slug(paragraph.title)}-${hash}.md`;
}

/** Markdown with the title in front matter (a JSON string is a valid YAML scalar) and as the heading. */
const paragraphMarkdown = (paragraph: Paragraph): string =>
  `---\ntitle: ${JSON.stringify(paragraph.title)}\n---\n# ${paragraph.title.replace(/\s+/g, ' ')}\n\n${paragraph.paragraph_text.trim()}\n`;

/** Supporting paragraphs in the order the decomposition uses them (hop 1 first), then any other supporting one. */
function supportingParagraphs(question: MusiqueQuestion): Paragraph[] {
  const byIdx = new Map(question.paragraphs.map((paragraph) => [paragraph.idx, paragraph]));
  const ordered = question.question_decomposition
    .map((step) => byIdx.get(step.paragraph_support_idx ?? -1))
    .filter((p): p is Paragraph => p?.is_supporting === true);
  const rest = question.paragraphs.filter((paragraph) => paragraph.is_supporting && !ordered.includes(paragraph));
  return [...new Set([...ordered, ...rest])];
}

export interface MusiqueOptions {
  limit?: number;
  /** `shared` (default): one corpus of every question's paragraphs (the open setting); `question`: each question sees its own 20. */
  scope?: ConversionScope;
}

/**
 * MuSiQue → cases over a corpus of its paragraphs, one document per distinct paragraph: the supporting paragraphs are
 * the relevant (and expected cited) documents, the answer must be contained. The schema takes no alternatives, so the
 * main answer is expected and the aliases are not used.
 */
export async function convertMusique(src: string, options: MusiqueOptions = {}): Promise<ConvertedSet> {
  const file = questionsFileOf(src);
  const questions = parseMusiqueQuestions(await readFile(file, 'utf8'), file).slice(0, options.limit);
  const scope = options.scope ?? 'shared';
  const documents = new Map<string, { paragraph: Paragraph; groups: Set<string> }>();
  const cases: EvalCase[] = [];
  for (const question of questions) {
    const group = groupName('musique', question.id);
    for (const paragraph of question.paragraphs) {
      const docId = paragraphDocId(paragraph);
      const document = documents.get(docId) ?? { paragraph, groups: new Set<string>() };
      document.groups.add(group);
      documents.set(docId, document);
    }
    const supporting = supportingParagraphs(question).map(paragraphDocId);
    const hops = /^(\d)hop/.exec(question.id)?.[1];
    cases.push({
      id: `musique-${question.id}`,
      user: 'musique',
      groups: scope === 'question' ? [group] : [],
      history: [],
      question: question.question,
      tags: ['musique', ...(hops ? [`${hops}-hop`] : [])],
      expect: question.answerable
        ? {
            relevant_docs: supporting,
            answerable: true,
            ...(question.answer.trim() ? { answer_contains: [question.answer.trim()] } : {}),
            cite_docs: supporting,
          }
        : { answerable: false },
    });
  }
  const files = [...documents.entries()].map(([docId, { paragraph, groups }]) => ({
    docId,
    content: paragraphMarkdown(paragraph),
    ...(scope === 'question' ? { acl: [...groups].map((group) => `group:${group}`) } : {}),
  }));
  return { cases, files };
}
