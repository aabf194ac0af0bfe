import { INTERRUPT, isInterrupted } from '@langchain/langgraph';
import { isPendingAction, type PendingAction } from '../domain/approval.ts';
import type { AgentRunResult } from '../domain/run-result.ts';
import type { SharedValues } from '../domain/run-state.ts';

/** The pending action a graph result carries under `__interrupt__` (LangGraph's convention), if it waits for one. */
export function pendingActionOf(values: unknown): PendingAction | undefined {
  if (!isInterrupted(values)) return undefined;
  return values[INTERRUPT].map((item) => item.value).find(isPendingAction);
}

/** A run's final state, read through the fields every agent's state shares; a run stopped at an `interrupt()` is `interrupted`. */
export function runResultOf(values: Record<string, unknown>, threadId: string, runId: string): AgentRunResult {
  const state = values as Partial<SharedValues>;
  const pending = pendingActionOf(values);
  return {
    answer: state.answer ?? null,
    status: pending ? 'interrupted' : (state.status ?? 'failed'),
    mode: state.mode ?? 'offline',
    thread_id: threadId,
    run_id: runId,
    standalone_question: state.standalone_question ?? '',
    sub_questions: state.sub_questions ?? [],
    evidence_ids: (state.evidence ?? []).map((item) => item.chunk_id),
    tool_calls: state.tool_calls ?? [],
    steps: state.steps ?? [],
    errors: state.errors ?? [],
    memories: state.memories ?? [],
    ...(pending ? { pending_action: pending } : {}),
  };
}
