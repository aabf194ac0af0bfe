import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import type { EvalCase } from '../cases/eval-case.ts';
import { formatZodIssues } from '../cases/read-cases.ts';
import type { ConvertedSet } from './converted-set.ts';
import type { UnderspecifiedPolicy } from './convert-options.ts';

const labels = ['ANSWERABLE', 'PARTIAL', 'UNANSWERABLE', 'UNDERSPECIFIED'] as const;
type Label = (typeof labels)[number];

const taskSchema = z.object({
  task_id: z.string().min(1),
  Collection: z.string().min(1),
  contexts: z
    .array(
      z
        .object({
          document_id: z.union([z.string().min(1), z.number()]).transform(String),
          text: z.string(),
          title: z.string().optional(),
        })
        .passthrough(),
    )
    .default([]),
  /** The conversation so far; its last turn is the user's question. */
  input: z.array(z.object({ speaker: z.enum(['user', 'agent']), text: z.string() }).passthrough()).min(1),
  /** One label in a list, as the reference file has it (a bare string is taken too). */
  answerability: z.union([
    z.enum(labels),
    z
      .array(z.enum(labels))
      .length(1)
      .transform((list) => list[0] as Label),
  ]),
});
export type MtragTask = z.infer<typeof taskSchema>;

/** `reference.jsonl`: one task (a conversation up to one user turn) a line. */
export function parseMtragTasks(text: string, file: string): MtragTask[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), index }))
    .filter(({ line }) => line)
    .map(({ line, index }) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (cause) {
        throw new ValidationError(`${file}: line ${index + 1} is not JSON.`, {
          cause,
          hint: 'Pass an MTRAG reference file (JSON lines).',
        });
      }
      const parsed = taskSchema.safeParse(value);
      if (!parsed.success)
        throw new ValidationError(
          `${file}: line ${index + 1} is not an MTRAG task: ${formatZodIssues(parsed.error)}.`,
          { hint: 'Each line needs task_id, Collection, contexts, input and answerability.' },
        );
      return parsed.data;
    });
}

export { underspecifiedPolicies, type UnderspecifiedPolicy } from './convert-options.ts';

export interface MtragOptions {
  limit?: number;
  underspecified?: UnderspecifiedPolicy;
}

/** A path segment from any id: letters, digits, `_`, `.` and `-` only. */
const segment = (id: string): string => id.replace(/[^\p{L}\p{N}_.-]+/gu, '-').replace(/^[-.]+|-+$/g, '') || 'untitled';

/** A context's doc id: its collection's folder and its document id, so the same passage cited by several turns is one document. */
export const mtragDocId = (collection: string, documentId: string): string =>
  `${segment(collection)}/${segment(documentId)}.txt`;

/**
 * Whether a turn should be answered. ANSWERABLE and PARTIAL (part of it is answerable) → true; UNANSWERABLE → false;
 * UNDERSPECIFIED turns carry reference contexts when the annotators found passages that answer a reading of them, so
 * by default they are answerable exactly then; null leaves the turn out.
 */
export function mtragAnswerable(task: MtragTask, policy: UnderspecifiedPolicy = 'by-contexts'): boolean | null {
  if (task.answerability !== 'UNDERSPECIFIED') return task.answerability !== 'UNANSWERABLE';
  if (policy === 'skip') return null;
  return policy === 'by-contexts' && task.contexts.length > 0;
}

/**
 * MTRAG(-UN) → cases over one shared corpus: the pooled, de-duplicated reference contexts of every converted task. An
 * unanswerable turn is thus asked against passages of its own conversation's topic that do not hold its answer, the
 * setting that tests a refusal rather than an empty index. The last user turn is the question, earlier turns the
 * history; the relevant docs are the turn's reference contexts. The free-form targets are not scored.
 */
export async function convertMtrag(file: string, options: MtragOptions = {}): Promise<ConvertedSet> {
  const tasks = parseMtragTasks(await readFile(file, 'utf8'), file).slice(0, options.limit);
  const documents = new Map<string, string>();
  const cases: EvalCase[] = [];
  for (const task of tasks) {
    const docIds = task.contexts.map((context) => {
      const docId = mtragDocId(task.Collection, context.document_id);
      // The first text seen wins: the reference file repeats a passage verbatim wherever several turns use it.
      if (!documents.has(docId))
        documents.set(docId, `${context.title?.trim() ? `${context.title.trim()}\n\n` : ''}${context.text.trim()}\n`);
      return docId;
    });
    const answerable = mtragAnswerable(task, options.underspecified);
    if (answerable === null) continue;
    const last = task.input[task.input.length - 1];
    if (!last || last.speaker !== 'user' || !last.text.trim())
      throw new ValidationError(`${file}: task ${task.task_id} does not end with a user turn.`, {
        hint: 'The last entry of `input` is the question.',
      });
    cases.push({
      id: `mtrag-${segment(task.task_id)}`,
      user: 'mtrag',
      groups: [],
      history: task.input
        .slice(0, -1)
        .filter((turn) => turn.text.trim())
        .map((turn) => ({
          role: turn.speaker === 'agent' ? ('assistant' as const) : ('user' as const),
          content: turn.text.trim(),
        })),
      question: last.text.trim(),
      tags: ['mtrag', task.Collection, task.answerability.toLowerCase()],
      expect: { answerable, ...(answerable && docIds.length ? { relevant_docs: [...new Set(docIds)] } : {}) },
    });
  }
  return { cases, files: [...documents.entries()].map(([docId, content]) => ({ docId, content })) };
}
