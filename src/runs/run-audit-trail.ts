import type { Principal } from '../domain/index.ts';
import type { SharedValues } from '../domain/run-state.ts';
import type { Logger } from '../logging/logger.ts';
import type { AuditSurface, RunRecord } from '../store/store.ts';
import type { DecidedApproval, RunAudit } from './run-audit.ts';
import type { RunRequest } from './run-request.ts';

/** A run's last state as its execution ended: undefined unless it settled (a failed run's state may be another run's). */
export type FinalState = Partial<SharedValues> | undefined;

/** What this process knows of a run it started, for the audit record of its end. */
export interface AskedRun {
  principal: Principal;
  surface?: AuditSurface;
  kind: RunRequest['action']['kind'];
}

/**
 * The run engine's side of the audit log: who asked each run started here and through what, the approval recorded
 * before its run is stored (a failed write refuses the decision), each ask as its run ends (a failed write cannot
 * take back what was streamed: it is logged as an error, and a client waiting for the end gets an error instead of the
 * answer).
 */
const MAX_UNRECORDED = 10_000;

export class RunAuditTrail {
  private readonly asked = new Map<string, AskedRun>();
  /** Runs ended here whose record could not be written (the latest MAX_UNRECORDED). */
  private readonly unrecorded = new Set<string>();

  constructor(
    private readonly audit: RunAudit | undefined,
    private readonly logger: Logger,
  ) {}

  /** Notes who started the run, for the record of its end. */
  started(runId: string, asked: AskedRun): void {
    this.asked.set(runId, asked);
  }

  /** A run start that failed: there is nothing to record. */
  forget(runId: string): void {
    this.asked.delete(runId);
  }

  /** Records a decision before its run is stored; a failure fails the decision (no decision runs unrecorded). */
  async approvalDecided(approval: DecidedApproval): Promise<void> {
    await this.audit?.approvalDecided(approval);
  }

  /**
   * The audit record of a run's end: the question with the doc ids of its evidence and citations, from the final
   * state. A decision's own run is recorded as the approval when it starts, not as an ask again.
   */
  async runEnded(run: RunRecord, final: FinalState): Promise<void> {
    const asked = this.asked.get(run.runId);
    this.asked.delete(run.runId);
    if (!this.audit || asked?.kind === 'resume') return;
    await this.record('ask', run.runId, async () => {
      const values = final ?? {};
      await this.audit?.runEnded({
        run,
        ...(asked ? { principal: asked.principal } : {}),
        ...(asked?.surface ? { surface: asked.surface } : {}),
        evidenceDocIds: distinct((values.evidence ?? []).map((item) => item.doc_id)),
        citedDocIds: distinct((values.answer?.citations ?? []).map((citation) => citation.doc_id)),
      });
    });
  }

  private async record(what: string, runId: string, write: () => Promise<void> | undefined): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.logger.error('audit record failed', { what, run_id: runId, error: String(error) });
      this.unrecorded.add(runId);
      if (this.unrecorded.size > MAX_UNRECORDED)
        this.unrecorded.delete(this.unrecorded.values().next().value as string);
    }
  }

  /** Whether the record of this run's end could not be written (a waiting client then gets an error, not the answer). */
  isUnrecorded(runId: string): boolean {
    return this.unrecorded.has(runId);
  }
}

const distinct = (ids: readonly string[]): string[] => [...new Set(ids)];
