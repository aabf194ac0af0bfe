import { Annotation } from '@langchain/langgraph';
import { citationFields, SharedState, value } from '../core/shared-state.ts';
import type { Evidence } from '../../domain/evidence.ts';

/** The retrieval tools a task can use, `table_query` over the ingested tables, and answering from what was gathered. */
export const CONTROLLABLE_TOOLS = [
  'retrieve_chunks',
  'retrieve_summaries',
  'retrieve_quotes',
  'table_query',
  'answer_from_context',
] as const;
export type ControllableTool = (typeof CONTROLLABLE_TOOLS)[number];
export type RetrievalTool = Exclude<ControllableTool, 'answer_from_context' | 'table_query'>;

/** One retrieved item: a chunk, a chapter summary or a quote, with the chunks it leads back to (what may be cited). */
export interface ContextItem {
  id: string;
  kind: 'chunk' | 'summary' | 'quote';
  doc_id: string;
  title: string;
  text: string;
  chunk_ids: string[];
  /** The query that retrieved it. */
  query: string;
}

/** A sentence of an evidence chunk that an answer relies on. */
export interface Support {
  chunk_id: string;
  sentence: string;
}

/** A task the run has finished, and how it ended. */
export interface PastStep {
  task: string;
  tool: ControllableTool;
  query: string;
  response: string;
  support: Support[];
  outcome: 'answered' | 'no_relevant_content' | 'not_grounded';
  /** The chunks the response was written from (its context and support), so a reader who may not read them gets it withheld. */
  sources: string[];
}

/**
 * The `controllable` graph's typed PlanExecute state: the shared fields plus its own. Checkpointed per thread:
 * `start_run` resets the per-run fields at the start of every run, `history` carries the conversation across runs.
 */
export const ControllableState = Annotation.Root({
  ...SharedState.spec,
  /** The question with its named entities replaced by variables (what the planner sees). */
  anonymized_question: value<string>(() => ''),
  /** Variable → the entity it stands for. */
  mapping: value<Record<string, string>>(() => ({})),
  /** Tasks still to do, de-anonymized; the first is the next. */
  plan: value<string[]>(() => []),
  /** The chunks the tasks done rested on when the plan was last rewritten from them (replan): its tasks may quote them. */
  plan_sources: value<string[]>(() => []),
  past_steps: value<PastStep[]>(() => []),
  curr_task: value<string>(() => ''),
  query_to_retrieve_or_answer: value<string>(() => ''),
  tool: value<ControllableTool | ''>(() => ''),
  /** What the current task's retrieval returned and kept. */
  curr_context: value<ContextItem[]>(() => []),
  /** The chunks behind the current task's items (citable once kept). */
  curr_evidence: value<Evidence[]>(() => []),
  /** Everything kept so far in the run. */
  aggregated_context: value<ContextItem[]>(() => []),
  /** The current task's answer, and the sentences it rests on. */
  response: value<string>(() => ''),
  response_support: value<Support[]>(() => []),
  /** Verdicts of the current task's checks (null before the check ran). */
  relevant: value<boolean | null>(() => null),
  grounded: value<boolean | null>(() => null),
  /** The planner's verdict that no task remains. */
  plan_done: value<boolean>(() => false),
  relevance_retries: value<number>(() => 0),
  groundedness_retries: value<number>(() => 0),
  replan_count: value<number>(() => 0),
  /** The citation check's (retry_count: final-answer attempts after it dropped every citation). */
  ...citationFields,
});

export type ControllableStateType = typeof ControllableState.State;
export type ControllableUpdate = typeof ControllableState.Update;
