import type { Principal } from '../domain/index.ts';
import type { AuditSurface, RunRecord } from '../store/store.ts';
import type { ApprovalDecision, PendingAction } from '../domain/approval.ts';

/** A run that ended, as the audit log records it: who asked (when this process knows), through what, and what came back. */
export interface EndedRun {
  run: RunRecord;
  /** The asking principal; absent for a run this process took over from one that died. */
  principal?: Principal;
  surface?: AuditSurface;
  /** Distinct doc ids of the run's evidence, in order. */
  evidenceDocIds: string[];
  /** Distinct doc ids the answer cites. */
  citedDocIds: string[];
}

/** A decision on a pending action, authorized and recorded as the start of the run that carries it out. */
export interface DecidedApproval {
  /** The run the decision starts (recorded before it is stored: no decision runs unrecorded). */
  run: Pick<RunRecord, 'runId' | 'threadId'>;
  decider: Principal;
  surface?: AuditSurface;
  decision: ApprovalDecision['decision'];
  action: PendingAction;
}

/**
 * Where the run engine reports what the audit log records (`src/audit/`). A decision is recorded before its run is
 * stored, and a decision whose record cannot be written is refused. An ask is recorded as its run ends: the ids it
 * records are bounded where they are stored (domain/identifier.ts), so only the store failing can lose that record,
 * after the answer was streamed; the engine logs it as an error.
 */
export interface RunAudit {
  runEnded(ended: EndedRun): Promise<void>;
  approvalDecided(decided: DecidedApproval): Promise<void>;
}
