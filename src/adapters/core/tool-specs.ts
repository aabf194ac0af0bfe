import { z } from 'zod';
import { LIMITS_DEFAULTS } from '../../config/index.ts';
import type { SearchResultJson } from '../../retrieval/search-result-json.ts';
import type {
  AdapterAskOptions,
  AdapterSearchOptions,
  AskResultJson,
  EvidentConnection,
} from './evident-connection.ts';

/** The two tools both frameworks get, written once: names, descriptions, input schemas, and what they return. */

export const SEARCH_TOOL_NAME = 'evident_search';
export const ASK_TOOL_NAME = 'evident_ask';

/** At most this many results per tool call: a model's context is the bound here, not the server's 200. */
export const MAX_TOOL_TOP_K = 50;

export const SEARCH_TOOL_DESCRIPTION =
  "Search the organisation's knowledge base (hybrid keyword and vector search) for passages relevant to a query. " +
  'Returns passages with their chunk_id, doc_id, heading, page and text, best first; only documents the user may read.';

export const ASK_TOOL_DESCRIPTION =
  "Ask the organisation's evidence-first agent a question. Returns an answer with citations (chunk_id, doc_id, quote), " +
  'or a refusal saying what evidence is missing (answerable: false). An action that needs approval comes back as ' +
  'pending_action and has not run: tell the user it waits for an authorised person.';

export const searchToolInput = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS_DEFAULTS.maxQueryChars)
    .describe('What to search for, in words the documents would use.'),
  top_k: z.number().int().min(1).max(MAX_TOOL_TOP_K).optional().describe('How many passages to return (default 5).'),
});

export const askToolInput = z.object({
  question: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS_DEFAULTS.maxQuestionChars)
    .describe('The question, as the user would ask it.'),
});

export type SearchToolInput = z.infer<typeof searchToolInput>;
export type AskToolInput = z.infer<typeof askToolInput>;

/** What the search tool returns: the body of `POST /v1/search`. */
export interface SearchToolOutput {
  query: string;
  results: SearchResultJson[];
}

/** What the ask tool returns: the answer contract and the run, plus a note for the model when an action waits. */
export type AskToolOutput = AskResultJson & { note?: string };

const DEFAULT_TOOL_TOP_K = 5;

export async function runSearchTool(
  connection: EvidentConnection,
  input: SearchToolInput,
  defaults: AdapterSearchOptions = {},
): Promise<SearchToolOutput> {
  const topK = input.top_k ?? defaults.topK ?? DEFAULT_TOOL_TOP_K;
  const results = await connection.search(input.query, { ...defaults, topK });
  return { query: input.query, results };
}

export async function runAskTool(
  connection: EvidentConnection,
  input: AskToolInput,
  options: AdapterAskOptions = {},
): Promise<AskToolOutput> {
  const result = await connection.ask(input.question, options);
  if (!result.pending_action) return result;
  // The tool never decides: the run waits, recorded, until an authorised person approves, edits or rejects it.
  const note =
    `The ${result.pending_action.tool} action waits for approval (approval_id ${result.pending_action.approval_id}) and has not run. ` +
    `An authorised person decides on thread ${result.thread_id} (evident approve, the web UI, or the LangGraph API).`;
  return { ...result, note };
}
