import { readFileSync } from 'node:fs';
import { z } from 'zod';

const paragraphSchema = z.object({
  idx: z.number().int(),
  title: z.string(),
  paragraph_text: z.string(),
  is_supporting: z.boolean(),
});
const questionSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  answer_aliases: z.array(z.string()).default([]),
  answerable: z.boolean(),
  paragraphs: z.array(paragraphSchema),
});
export type MusiqueQuestion = z.infer<typeof questionSchema>;

/** The first `limit` answerable questions of a MuSiQue file, in file order (a fixed, reproducible sample). */
export function loadMusique(path: string, limit: number): MusiqueQuestion[] {
  const all = z.array(questionSchema).parse(JSON.parse(readFileSync(path, 'utf8')));
  return all.filter((question) => question.answerable).slice(0, limit);
}

/** A question's paragraphs as documents: one per paragraph, titled, with a doc id that names its index. */
export const paragraphDocId = (idx: number): string => `paragraph-${String(idx).padStart(2, '0')}`;

export const supportingDocIds = (question: MusiqueQuestion): string[] =>
  question.paragraphs.filter((paragraph) => paragraph.is_supporting).map((paragraph) => paragraphDocId(paragraph.idx));
