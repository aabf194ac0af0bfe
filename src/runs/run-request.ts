import type { Principal } from '../domain/index.ts';
import type { AuditSurface, MultitaskStrategy } from '../store/store.ts';
import type { ApprovalDecision } from '../domain/approval.ts';
import type { Turn } from '../domain/turn.ts';
import type { RunAssistant } from './run-assistants.ts';

/**
 * What a run does: a new question; the decision on the action the thread's last run stopped for; or time travel from
 * an earlier checkpoint of the thread — a new question from the end of a run (a fork), or a replay from mid-run.
 */
export type RunAction =
  | { kind: 'ask'; question: string; history: Turn[] }
  | { kind: 'resume'; decision: ApprovalDecision }
  | { kind: 'fork'; checkpointId: string; question?: string };

/** What starting a run needs, whatever front end (HTTP API, OpenAI-compatible route, CLI, eval) asked for it. */
export interface RunRequest {
  agent: string;
  threadId: string;
  principal: Principal;
  action: RunAction;
  /** Create the thread when it does not exist (else a missing thread is `not_found`). */
  createThread?: boolean;
  /** The front end that asked (`langgraph`, `openai`, `cli`, `mcp`), for the audit log. */
  surface?: AuditSurface;
  /** A version of the assistant `agent` names (default: its latest). */
  assistantVersion?: number;
  /** The assistant as the run manager resolved it when the run started: what the run applies and records. */
  assistant?: RunAssistant;
  /** What the run does on a busy thread (LangGraph's double-texting): `reject` (the default), `enqueue`, `interrupt`, `rollback`. */
  multitaskStrategy?: MultitaskStrategy;
  /**
   * The stream modes the client asked for: the detail ones among them (`events`, `debug`, `checkpoints`, `tasks`,
   * `tools`) are recorded for this run; the others are recorded for every run.
   */
  streamModes?: readonly string[];
  /** A URL the run's end is POSTed to, signed (LangGraph's `webhook`); checked by `RunWebhooks.admit` before the run starts. */
  webhook?: string;
}
