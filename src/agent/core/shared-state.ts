import { Annotation } from '@langchain/langgraph';
import type { Answer, Citation } from '../../domain/answer.ts';
import type { Evidence } from '../../domain/evidence.ts';
import type { Principal } from '../../domain/index.ts';
import type { MemoryContext, RunStatus, SharedValues } from '../../domain/run-state.ts';
import type { RunError, Step, ToolCallRecord } from '../../domain/step.ts';
import type { Turn } from '../../domain/turn.ts';

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

// The wire type clients read (domain/run-state.ts) is exactly this state's values: a field added here must be added there.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<SharedStateType, SharedValues>;

// Beside the shared fields, the fields the shared nodes (core/nodes) keep, in groups: an agent's state spreads the
// groups of the shared nodes it wires, so each agent states what it shares instead of inheriting another's state.

/**
 * Turns older than the history window, folded into a bounded running summary: load_memory writes it, rewrite reads it.
 * `history_summary_sources` are the chunks the folded turns rested on: a reader who may not read one of them today
 * gets the summary withheld (runs/redact-for-reader.ts), and a new run starts without it.
 */
export const historySummaryField = {
  history_summary: value<string>(() => ''),
  history_summary_sources: value<string[]>(() => []),
};

/**
 * What the citation check and finalize keep: the final answer's citations, why the check dropped citations last time
 * (fed back to the model on retry), and the retries so far.
 */
export const citationFields = {
  citations: value<Citation[]>(() => []),
  citation_feedback: value<string[]>(() => []),
  retry_count: value<number>(() => 0),
};

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
