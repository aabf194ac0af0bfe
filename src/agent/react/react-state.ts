import { Annotation } from '@langchain/langgraph';
import type { Citation } from '../../domain/answer.ts';
import type { Candidate } from '../../domain/evidence.ts';
import { citationFields, historySummaryField, SharedState, value } from '../core/shared-state.ts';

/** The tools a `react` run may call; `final_answer` ends the loop. */
export type ReactToolName = 'knowledge_base' | 'table_query' | 'save_memory';

/** A validated tool call waiting to run (its id is the model's, or made from the iteration). */
export interface ToolRequest {
  id: string;
  tool: ReactToolName;
  input: Record<string, unknown>;
}

/** Rows a table_query observation carries, so an offline answer can quote the computed value. */
export interface TableRows {
  columns: string[];
  rows: unknown[][];
  /** The table chunk lines the result was computed from (see `tableEvidence`), as citations of the run's evidence. */
  citations?: Citation[];
  /** The cited source rows, when few enough to show in an answer. */
  source_rows?: string[];
}

/** What a tool (or the agent, correcting the model) answered to one call of a turn. */
export interface Observation {
  /** The call it answers; '' when the model's reply held no call at all (a corrective observation). */
  call_id: string;
  tool: string;
  content: string;
  ok: boolean;
  table?: TableRows;
  /** The documents a table result rests on: the observation is withheld from a reader who lost one. */
  doc_ids?: string[];
}

/** One Thought → Action(s) → Observation(s) turn of the loop, kept protocol-neutral so each protocol can render it. */
export interface ReactTurn {
  iteration: number;
  thought: string;
  /** The model's reply as it was (text protocol), or its text content (native protocol). */
  raw: string;
  calls: { id: string; tool: string; input: Record<string, unknown> }[];
  observations: Observation[];
}

/**
 * The `react` graph's state: the shared fields (answer contract, evidence, steps, tool calls, errors, principal,
 * thread and run ids, history), those of the shared nodes it wires (load_memory, rewrite, citation_check, finalize),
 * the channel hits its knowledge_base calls return, and the loop's transcript. Per-run fields are reset at the start
 * of every run; `history` carries the conversation.
 */
export const ReactState = Annotation.Root({
  ...SharedState.spec,
  ...historySummaryField,
  ...citationFields,
  /** The channel hits of the last knowledge_base calls (shown as a step's hits). */
  candidates: value<Candidate[]>(() => []),
  /** The loop so far, one entry per iteration. */
  scratchpad: value<ReactTurn[]>(() => []),
  /** Valid tool calls of the last turn not run yet. */
  queue: value<ToolRequest[]>(() => []),
  /** Model (or offline strategy) decisions so far in this run: bounded by `maxIterations`. */
  iterations: value<number>(() => 0),
});

export type ReactStateType = typeof ReactState.State;
export type ReactUpdate = typeof ReactState.Update;

/** react's own per-run fields as a run starts: load_memory resets them beside the shared ones. */
export const reactRunStart = { candidates: [], scratchpad: [], queue: [], iterations: 0 } satisfies ReactUpdate;
