import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import type { EvalCase } from '../cases/eval-case.ts';
import { formatZodIssues } from '../cases/read-cases.ts';
import { groupName, type ConversionScope, type ConvertedFile, type ConvertedSet } from './converted-set.ts';

const questionSchema = z.object({
  id: z.string().min(1),
  utterance: z.string().min(1),
  /** The table's CSV, relative to the dataset folder (`csv/203-csv/328.csv`). */
  context: z.string().regex(/^[\w./-]+\.csv$/, 'a relative .csv path'),
  /** The answer; several values are separated by `|`. */
  targetValue: z.string(),
});
export type WtqQuestion = z.infer<typeof questionSchema>;

/** One CSV field, quoted the RFC 4180 way (inner quotes doubled). */
const csvField = (value: string): string => `"${value.replaceAll('"', '""')}"`;

/**
 * The dataset's tables escape quotes with a backslash (`"12\""`), which standard CSV readers (Evident's among them)
 * take for an unclosed quote; they are rewritten as RFC 4180 CSV with the same cells.
 */
export function toStandardCsv(text: string, file: string): string {
  let rows: string[][];
  try {
    rows = parse(text, { escape: '\\', relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (cause) {
    throw new ValidationError(`${file} is not a WikiTableQuestions CSV table: ${(cause as Error).message}`, {
      cause,
      hint: 'Tables are CSV with backslash-escaped quotes.',
    });
  }
  return rows.map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

/** `questions.tsv`: a header line, then tab-separated fields, quoted like CSV when they hold quotes. */
export function parseWtqQuestions(text: string, file: string): WtqQuestion[] {
  const rows = parse(text, { delimiter: '\t', columns: true, skip_empty_lines: true, relax_quotes: true }) as Record<
    string,
    string
  >[];
  return rows.map((row, index) => {
    const parsed = questionSchema.safeParse(row);
    if (!parsed.success)
      throw new ValidationError(`${file}: question ${index + 1} is not valid: ${formatZodIssues(parsed.error)}.`, {
        hint: 'Expected the columns id, utterance, context, targetValue.',
      });
    return parsed.data;
  });
}

export interface WtqOptions {
  limit?: number;
  /** `question` (default): each question sees only its own table, as in the WikiTableQuestions task. */
  scope?: ConversionScope;
}

/**
 * WikiTableQuestions → cases over a corpus of its tables: each question's table is a CSV in the corpus (ingested as a
 * SQL table), the answer must be contained (every `|`-separated value), and the path must go through `table_query`.
 * With scope `question` every table is readable only by a group of its own and each case asks as a member of it.
 */
export async function convertWikiTableQuestions(src: string, options: WtqOptions = {}): Promise<ConvertedSet> {
  const questionsFile = join(src, 'questions.tsv');
  const questions = parseWtqQuestions(await readFile(questionsFile, 'utf8'), questionsFile).slice(0, options.limit);
  const scope = options.scope ?? 'question';
  const files = new Map<string, ConvertedFile>();
  const cases: EvalCase[] = [];
  for (const question of questions) {
    const docId = question.context;
    const group = groupName('wtq', docId.replace(/^csv\//, '').replace(/\.csv$/, ''));
    if (!files.has(docId)) {
      files.set(docId, {
        docId,
        content: toStandardCsv(await readFile(join(src, docId), 'utf8'), join(src, docId)),
        ...(scope === 'question' ? { acl: [`group:${group}`] } : {}),
      });
    }
    const answers = question.targetValue
      .split('|')
      .map((value) => value.trim())
      .filter(Boolean);
    cases.push({
      id: `wtq-${question.id}`,
      user: 'wtq',
      groups: scope === 'question' ? [group] : [],
      history: [],
      question: question.utterance,
      tags: ['wtq', 'table'],
      expect: {
        answerable: true,
        ...(answers.length ? { answer_contains: answers } : {}),
        tools: { expected: ['table_query'] },
      },
    });
  }
  return { cases, files: [...files.values()] };
}
