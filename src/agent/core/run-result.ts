import type { Answer } from '../../domain/answer.ts';
import { pendingActionOf, type PendingAction } from './approval.ts';
import type { MemoryContext, RunError, RunStatus, SharedStateType, Step, ToolCallRecord } from './state.ts';

/** What one run of any agent returns to an in-process client (CLI, eval, adapters): the answer contract plus its trace. */
export interface AgentRunResult {
  answer: Answer | null;
  status: RunStatus;
  mode: string;
  thread_id: string;
  run_id: string;
  standalone_question: string;
  sub_questions: string[];
  evidence_ids: string[];
  tool_calls: ToolCallRecord[];
  steps: Step[];
  errors: RunError[];
  /** The asking user's long-term memories this run loaded (context, not citations). */
  memories: MemoryContext[];
  /** With status `interrupted`: the side effect waiting for a decision (`evident approve`, `command.resume`). */
  pending_action?: PendingAction;
}

/** A run's final state, read through the fields every agent's state shares; a run stopped at an `interrupt()` is `interrupted`. */
export function runResultOf(values: Record<string, unknown>, threadId: string, runId: string): AgentRunResult {
  const state = values as Partial<SharedStateType>;
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
