import type { Answer } from './answer.ts';
import type { PendingAction } from './approval.ts';
import type { MemoryContext, RunStatus } from './run-state.ts';
import type { RunError, Step, ToolCallRecord } from './step.ts';

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
