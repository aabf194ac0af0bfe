import { Annotation } from '@langchain/langgraph';
import type { Answer, Citation } from '../../domain/answer.ts';
import type { ChannelName, Principal } from '../../domain/index.ts';

/** One earlier turn of the conversation. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
  /** An answer's turn: the chunks it rests on (evidence and citations), so a later reader who may not read them gets it withheld. */
  sources?: string[];
  /** An answer's turn: its citations and the chunks they cite, so an earlier answer opens its sources as a fresh one does. */
  citations?: Citation[];
  cited?: Evidence[];
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
  /** The judged probability that the evidence states the answer; `answerable` is `isSufficient(sufficiency)` (core/sufficiency.ts). */
  sufficiency: number;
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

/** Replace-on-write: every node returns the whole new value of the fields it changes. */
export const value = <T>(initial: () => T) =>
  Annotation<T>({ reducer: (_left: T, right: T) => right, default: initial });

/**
 * The fields every agent's state carries (ARCHITECTURE §1): the question and conversation, who asks, what the run
 * found and answered, its trace and status. The run runtime, the event stream, the CLI and the evaluation read
 * these alone; each agent adds its own fields beside them (`Annotation.Root({ ...SharedState.spec, … })`).
 */
export const SharedState = Annotation.Root({
  question: value<string>(() => ''),
  /** The last turns of the thread, verbatim (each agent bounds the window). */
  history: value<Turn[]>(() => []),
  /** The asking user's long-term memories this run loaded (context, not citations). */
  memories: value<MemoryContext[]>(() => []),
  /** The question as retrieval saw it (a follow-up rewritten to stand alone). */
  standalone_question: value<string>(() => ''),
  sub_questions: value<string[]>(() => []),
  evidence: value<Evidence[]>(() => []),
  answer: value<Answer | null>(() => null),
  tool_calls: value<ToolCallRecord[]>(() => []),
  steps: value<Step[]>(() => []),
  errors: value<RunError[]>(() => []),
  status: value<RunStatus>(() => 'running'),
  /** Labels the answer's origin: `offline` (deterministic strategies) or the chat model id. */
  mode: value<string>(() => 'offline'),
  thread_id: value<string>(() => ''),
  run_id: value<string>(() => ''),
  principal: value<Principal | null>(() => null),
});

/** The shared fields as values: what code that works for every agent may read of any agent's state. */
export type SharedStateType = typeof SharedState.State;
export type SharedUpdate = typeof SharedState.Update;

/** The chunks an answer rests on: its evidence and its citations, each once (what a conversation turn records as `sources`). */
export const answerSources = (evidence: readonly Evidence[], answer: Answer): string[] => [
  ...new Set([...evidence.map((item) => item.chunk_id), ...answer.citations.map((citation) => citation.chunk_id)]),
];

/** The answer as a conversation turn, with what it rests on. */
export const answerTurn = (evidence: readonly Evidence[], answer: Answer): Turn => {
  const sources = answerSources(evidence, answer);
  const citedIds = new Set(answer.citations.map((citation) => citation.chunk_id));
  const cited = evidence.filter((item) => citedIds.has(item.chunk_id));
  return {
    role: 'assistant',
    content: answer.answer,
    ...(sources.length > 0 ? { sources } : {}),
    ...(answer.citations.length > 0 ? { citations: answer.citations, cited } : {}),
  };
};
