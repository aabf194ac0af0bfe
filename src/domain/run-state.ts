import type { Answer } from './answer.ts';
import type { Evidence } from './evidence.ts';
import type { Principal } from './principal.ts';
import type { RunError, Step, ToolCallRecord } from './step.ts';
import type { Turn } from './turn.ts';

/** A long-term memory of the asking user loaded for this run: context for the model, never a citation. */
export interface MemoryContext {
  id: string;
  text: string;
  score: number;
}

/** `interrupted`: the run waits for an approval of a side-effect tool (see `pending_action` of the run result). */
export type RunStatus = 'running' | 'answered' | 'refused' | 'failed' | 'interrupted';

/**
 * The values every agent's state carries (ARCHITECTURE §1), as the run engine, the event stream, the CLI, the
 * evaluation and the web UI read them, whichever agent ran. The agents' shared LangGraph state
 * (`agent/core/shared-state.ts`) has exactly these fields; each agent adds its own beside them.
 */
export interface SharedValues {
  question: string;
  /** The last turns of the thread, verbatim (each agent bounds the window). */
  history: Turn[];
  /** The asking user's long-term memories this run loaded (context, not citations). */
  memories: MemoryContext[];
  /** The question as retrieval saw it (a follow-up rewritten to stand alone). */
  standalone_question: string;
  sub_questions: string[];
  evidence: Evidence[];
  answer: Answer | null;
  tool_calls: ToolCallRecord[];
  steps: Step[];
  errors: RunError[];
  status: RunStatus;
  /** Labels the answer's origin: `offline` (deterministic strategies) or the chat model id. */
  mode: string;
  thread_id: string;
  run_id: string;
  principal: Principal | null;
}
