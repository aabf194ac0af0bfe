import { Annotation } from '@langchain/langgraph';
import type { Answer, Citation } from '../../domain/answer.ts';
import type { ChannelName, Principal } from '../../domain/index.ts';

/** One earlier turn of the conversation. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** One channel's hit for one sub-question, before merging. */
export interface Candidate {
  query: string;
  channel: ChannelName | 'fused';
  chunk_id: string;
  rank: number;
  score: number;
}

/** A retrieved chunk the run may use and cite (already filtered for the principal by the store). */
export interface Evidence {
  chunk_id: string;
  doc_id: string;
  source: string;
  title: string;
  heading: string;
  page?: number;
  text: string;
  /** Merged score across sub-questions (reciprocal rank fusion of their rankings). */
  score: number;
  /** The sub-questions that retrieved it. */
  queries: string[];
}

export interface Answerability {
  answerable: boolean;
  reasons: string[];
  missing_information: string[];
  /** Sentences judged to answer a need, per sub-question (offline strategy; empty when a model judged). */
  support: { query: string; chunk_id: string; sentence: string }[];
}

export interface ToolCallRecord {
  name: string;
  arguments: Record<string, unknown>;
  result_summary: string;
  ok: boolean;
  duration_ms: number;
}

export interface Step {
  node: string;
  start: string;
  end: string;
  duration_ms: number;
  summary: string;
}

export interface RunError {
  node: string;
  code: string;
  message: string;
}

/** A long-term memory of the asking user loaded for this run: context for the model, never a citation. */
export interface MemoryContext {
  id: string;
  text: string;
  score: number;
}

/** `interrupted`: the run waits for an approval of a side-effect tool (see `pending_action` of the run result). */
export type RunStatus = 'running' | 'answered' | 'refused' | 'failed' | 'interrupted';
export type Route = 'retrieve' | 'table' | 'direct';

/** Replace-on-write: every node returns the whole new value of the fields it changes. */
const value = <T>(initial: () => T) => Annotation<T>({ reducer: (_left: T, right: T) => right, default: initial });

/**
 * The `rag` graph's explicit state. It is checkpointed per thread, so per-run fields are reset by `load_memory`
 * at the start of every run, while `history` carries the conversation across runs.
 */
export const RagState = Annotation.Root({
  question: value<string>(() => ''),
  /** The last `historyWindow` turns, verbatim. */
  history: value<Turn[]>(() => []),
  /** Turns older than the window, folded into a bounded running summary (short-term memory beyond the window). */
  history_summary: value<string>(() => ''),
  memories: value<MemoryContext[]>(() => []),
  standalone_question: value<string>(() => ''),
  sub_questions: value<string[]>(() => []),
  route: value<Route>(() => 'retrieve'),
  candidates: value<Candidate[]>(() => []),
  evidence: value<Evidence[]>(() => []),
  answerability: value<Answerability | null>(() => null),
  answer: value<Answer | null>(() => null),
  citations: value<Citation[]>(() => []),
  /** Why the citation check dropped citations last time: fed back to the model on retry. */
  citation_feedback: value<string[]>(() => []),
  tool_calls: value<ToolCallRecord[]>(() => []),
  steps: value<Step[]>(() => []),
  errors: value<RunError[]>(() => []),
  retry_count: value<number>(() => 0),
  status: value<RunStatus>(() => 'running'),
  /** Labels the answer's origin: `offline` (deterministic strategies) or the chat model id. */
  mode: value<string>(() => 'offline'),
  thread_id: value<string>(() => ''),
  run_id: value<string>(() => ''),
  principal: value<Principal | null>(() => null),
});

export type RagStateType = typeof RagState.State;
export type RagUpdate = typeof RagState.Update;
