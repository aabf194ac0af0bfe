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
  run: RunRecord;
  decider: Principal;
  surface?: AuditSurface;
  decision: ApprovalDecision['decision'];
  action: PendingAction;
}

/**
 * Where the run engine reports what the audit log records (`src/audit/`). The engine does not fail a run when a
 * record cannot be written (the run's outcome is already stored and streamed): it logs the failure as an error.
 */
export interface RunAudit {
  runEnded(ended: EndedRun): Promise<void>;
  approvalDecided(decided: DecidedApproval): Promise<void>;
}
