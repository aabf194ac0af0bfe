import type { Principal } from '../../domain/index.ts';
import type { ApprovalDecision } from '../core/approval.ts';
import type { Turn } from '../core/state.ts';

/** A new question, or the decision on the action the thread's last run stopped for. */
export type RunAction = { kind: 'ask'; question: string; history: Turn[] } | { kind: 'resume'; decision: ApprovalDecision };

/** What starting a run needs, whatever front end (HTTP API, OpenAI-compatible route, CLI) asked for it. */
export interface RunRequest {
  agent: string;
  threadId: string;
  principal: Principal;
  action: RunAction;
  /** Create the thread when it does not exist (else a missing thread is `not_found`). */
  createThread?: boolean;
}
