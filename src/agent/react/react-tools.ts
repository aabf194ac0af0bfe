import type { ToolDefinition } from '@langchain/core/language_models/base';
import { z } from 'zod';
import type { Answer } from '../../domain/answer.ts';
import type { Evidence } from '../../domain/evidence.ts';
import { tableQueryInputSchema } from '../core/tools/table-query.ts';
import type { ReactToolName } from './react-state.ts';

export const knowledgeBaseInputSchema = z.object({
  query: z.string().trim().min(2, 'query must name what to search for').max(500),
});
export const saveMemoryInputSchema = z.object({
  text: z.string().trim().min(3, 'text must be the fact to remember').max(1000),
});

/** The model's final answer: the answer contract, with citations naming a chunk and quoting it (the rest is filled in). */
export const finalAnswerSchema = z.object({
  answer: z.string().min(1),
  answerable: z.boolean(),
  confidence: z.number().min(0).max(1),
  citations: z.array(
    z.object({ chunk_id: z.string().min(1), quote: z.string().min(1), doc_id: z.string().optional() }),
  ),
  missing_information: z.array(z.string()).default([]),
  /** Extract, then judge (as every agent's model path does): the passage sentences that state the answer, by chunk_id … */
  supporting: z
    .array(z.object({ chunk_id: z.string().min(1), sentence: z.string().min(1) }))
    .max(12)
    .optional(),
  /** … and how likely (0..1) they state the whole answer; when given, the answer is answerable exactly at the shared threshold. */
  sufficiency: z.number().min(0).max(1).optional(),
});
export type FinalAnswer = z.infer<typeof finalAnswerSchema>;

export const FINAL_ANSWER = 'final_answer';

interface ToolSpec {
  name: ReactToolName | typeof FINAL_ANSWER;
  description: string;
  schema: z.ZodType<Record<string, unknown>>;
}

export const REACT_TOOLS: readonly ToolSpec[] = [
  {
    name: 'knowledge_base',
    description:
      "Searches the organisation's documents the user may see (several search queries made from yours, hybrid retrieval, reciprocal rank fusion) and returns the best passages, each under its chunk_id. Only these passages may be cited.",
    schema: knowledgeBaseInputSchema,
  },
  {
    name: 'table_query',
    description:
      'Runs one read-only SQL SELECT over the ingested tables (CSV/XLSX) the user may see; use it for sums, counts, averages and filters. Quote column names with double quotes.',
    schema: tableQueryInputSchema,
  },
  {
    name: 'save_memory',
    description:
      'Saves a fact the user asked you to remember to their long-term memories. It waits for the user to approve it.',
    schema: saveMemoryInputSchema,
  },
  {
    name: FINAL_ANSWER,
    description:
      'Gives the final answer and ends the work. First copy into supporting the passage sentences that state the answer (each with its chunk_id), and judge in sufficiency (0 to 1) how likely they state the whole answer. ' +
      'Cite every claim with the chunk_id of a knowledge_base passage and a quote copied exactly from it. If the evidence does not state the answer, set answerable to false and list the missing information.',
    schema: finalAnswerSchema,
  },
];

const byName = new Map(REACT_TOOLS.map((tool) => [tool.name, tool]));
export const TOOL_NAMES = REACT_TOOLS.map((tool) => tool.name);

/** The tools as JSON-schema function definitions (what `bindTools` takes, and what the text protocol lists). */
export const toolDefinitions = (): ToolDefinition[] =>
  REACT_TOOLS.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: z.toJSONSchema(tool.schema, { io: 'input' }),
    },
  }));

export type CheckedCall =
  | { ok: true; kind: 'tool'; tool: ReactToolName; input: Record<string, unknown> }
  | { ok: true; kind: 'final'; answer: FinalAnswer }
  | { ok: false; problem: string };

/** A call the model asked for, checked against the tool list and the tool's schema; a problem reads as an observation. */
export function checkCall(name: string, args: unknown): CheckedCall {
  const tool = byName.get(name.trim() as ToolSpec['name']);
  if (!tool)
    return { ok: false, problem: `There is no tool named "${name}". The tools are: ${TOOL_NAMES.join(', ')}.` };
  const parsed = tool.schema.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
      .join('; ');
    return {
      ok: false,
      problem: `The input of ${tool.name} is invalid (${issues}). Its JSON schema is ${JSON.stringify(z.toJSONSchema(tool.schema, { io: 'input' }))}.`,
    };
  }
  if (tool.name === FINAL_ANSWER) return { ok: true, kind: 'final', answer: parsed.data as FinalAnswer };
  return { ok: true, kind: 'tool', tool: tool.name, input: parsed.data };
}

/**
 * The answer contract of a final answer: each citation takes its document and source from the evidence it names. A
 * citation of a chunk the run never retrieved keeps what the model said (the chunk id's document), and the citation
 * check drops it.
 */
export function answerOf(final: FinalAnswer, evidence: readonly Evidence[]): Answer {
  const byId = new Map(evidence.map((item) => [item.chunk_id, item]));
  return {
    answer: final.answer,
    answerable: final.answerable,
    confidence: final.confidence,
    missing_information: final.missing_information,
    citations: final.citations.map(({ chunk_id, quote, doc_id }) => {
      const chunk = byId.get(chunk_id);
      if (!chunk) return { chunk_id, doc_id: doc_id || chunk_id.split('#')[0] || chunk_id, source: '', quote };
      return {
        chunk_id,
        doc_id: chunk.doc_id,
        source: chunk.source,
        ...(chunk.page ? { page: chunk.page } : {}),
        quote,
      };
    }),
  };
}
