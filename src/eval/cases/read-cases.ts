import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import { evalCaseSchema, type EvalCase } from './eval-case.ts';

/** A case and where it was read from, so later errors can point at its line. */
export interface LocatedCase {
  evalCase: EvalCase;
  file: string;
  line: number;
}

export const formatZodIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ');

/** Parses a cases file's text: one JSON object per non-blank line; every error names the file and line. */
export function parseCases(text: string, file: string): LocatedCase[] {
  const cases: LocatedCase[] = [];
  const seen = new Map<string, number>();
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1;
    if (!raw.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      throw new ValidationError(`${file}:${line} is not valid JSON (${(cause as Error).message}).`, {
        cause,
        hint: 'A cases file holds one JSON object per line.',
      });
    }
    const parsed = evalCaseSchema.safeParse(value);
    if (!parsed.success) {
      throw new ValidationError(`${file}:${line} is not a valid case: ${formatZodIssues(parsed.error)}.`, {
        hint: 'A case is {"id", "user", "question", "history"?, "groups"?, "tags"?, "expect"?}; see src/eval/cases/eval-case.ts.',
      });
    }
    const earlier = seen.get(parsed.data.id);
    if (earlier !== undefined)
      throw new ValidationError(`${file}:${line}: case id "${parsed.data.id}" is already used on line ${earlier}.`, {
        hint: 'Case ids must be unique: results are compared by id.',
      });
    seen.set(parsed.data.id, line);
    cases.push({ evalCase: parsed.data, file, line });
  }
  if (cases.length === 0)
    throw new ValidationError(`${file} holds no cases.`, { hint: 'Write one JSON object per line.' });
  return cases;
}

export async function readCases(file: string): Promise<LocatedCase[]> {
  if (!existsSync(file))
    throw new ValidationError(`The cases file ${file} does not exist.`, {
      hint: 'Pass a JSONL file of evaluation cases.',
    });
  return parseCases(await readFile(file, 'utf8'), file);
}
