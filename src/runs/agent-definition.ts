import type { StateSnapshot } from '@langchain/langgraph';
import type { Principal } from '../domain/index.ts';
import type { RunRecordStatus } from '../store/store.ts';
import type { Turn } from '../domain/turn.ts';
import type { AgentTrace } from './run-trace.ts';

/** What a compiled, checkpointed LangGraph graph offers the run runtime (structural, so every agent's graph fits). */
export interface AgentGraph {
  stream(input: unknown, options: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  /** LangChain's callback events (v2) of an execution, for the `events` stream mode; a graph without it cannot record them. */
  streamEvents?(input: unknown, options: Record<string, unknown> & { version: 'v2' }): AsyncIterable<unknown>;
  getState(config: { configurable: Record<string, unknown> }): Promise<StateSnapshot>;
  getStateHistory(
    config: { configurable: Record<string, unknown> },
    options?: { limit?: number },
  ): AsyncIterable<StateSnapshot>;
  getGraphAsync(): Promise<{ toJSON(): unknown }>;
}

/** How a run begins: a question as the chat convention gives it, for one principal on one thread. */
export interface RunStartInput {
  question: string;
  /** Earlier turns: they seed a thread that has no state yet and are ignored on a thread that has its own. */
  history: Turn[];
  principal: Principal;
  threadId: string;
  runId: string;
}

/**
 * One agent as the run runtime, the API and the CLI see it: its graph and the few agent-specific translations
 * (question → graph input, state → what clients see, final state → run status).
 */
export interface AgentDefinition {
  readonly name: string;
  readonly description: string;
  readonly graph: AgentGraph;
  /**
   * Whether a step can stream chat messages (it calls a chat model): false lets a run leave LangGraph's `messages`
   * handler out, which otherwise starts and ends a callback run around every node. Absent: it can.
   */
  readonly streamsMessages?: boolean;
  inputFor(start: RunStartInput, threadHasState: boolean): Record<string, unknown>;
  /** The state as clients see it: the graph's values plus the conversation as chat `messages`. */
  view(values: Record<string, unknown>): Record<string, unknown>;
  /** How a run that reached the end of the graph went (`answered`, `refused`, `failed`). */
  outcome(values: Record<string, unknown>): RunRecordStatus;
  /** Deletes the thread's checkpoints (the thread itself is the store's). */
  forgetThread(threadId: string): Promise<void>;
  /**
   * Copies the thread's checkpoints (every branch, with pending writes) to another thread id; resolves with how many.
   * Absent where the agent has no checkpointer: a copy is then refused.
   */
  copyCheckpoints?(from: string, to: string): Promise<number>;
  /**
   * A rollback: deletes the thread's checkpoints after `after` (all when null), so its state is what it was at that
   * checkpoint. Absent where the checkpointer cannot: a rollback is then refused before anything is stopped.
   */
  forgetCheckpointsAfter?(threadId: string, after: string | null): Promise<void>;
  /**
   * What a finished run did, layer by layer, for evaluation. Optional: without it the evaluation reads the fields
   * every agent's state shares (`standalone_question`, `evidence`, `answer`, `tool_calls`, `status`, `errors`).
   */
  trace?(values: Record<string, unknown>): AgentTrace;
}
