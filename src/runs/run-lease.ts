import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { runsSchema, type RunsConfig } from '../config/runs-schema.ts';
import type { Logger } from '../logging/logger.ts';
import type { RunLease, RunLog } from '../store/store.ts';

/** How often a run's lease is renewed and how long it lasts unrenewed (config `runs`). */
export type RunLeaseSettings = RunsConfig;

/** The documented defaults (`runs` in the config schema): a 5 s heartbeat, a 20 s lease. */
export const DEFAULT_RUN_LEASE_SETTINGS: RunLeaseSettings = runsSchema.parse(undefined);

/**
 * Why an execution stops without recording the run's end, as the reason of its abort signal: `handover` (this
 * process is closing and leaves the run to whichever process claims it next) or `lease_lost` (another process holds
 * the run now). A plain abort is a cancellation, which is recorded.
 */
export type LeaseStop = 'handover' | 'lease_lost';

export const leaseStopOf = (signal: AbortSignal): LeaseStop | undefined =>
  signal.aborted && (signal.reason === 'handover' || signal.reason === 'lease_lost') ? signal.reason : undefined;

/**
 * One run manager's leases: its owner id, the lease it takes on every run it starts or claims, and the heartbeat
 * that renews them while they execute.
 */
export class RunLeases {
  /** Unique per run manager, so two managers in one process (tests, two runtimes) never share a lease. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly store: Pick<RunLog, 'renewRunLease'>,
    readonly settings: RunLeaseSettings,
    private readonly logger: Logger,
  ) {}

  /** The lease a run start or a claim takes: this owner, for `leaseMs`. */
  get lease(): RunLease {
    return { owner: this.owner, ttlMs: this.settings.leaseMs };
  }

  /**
   * Renews the run's lease every heartbeat until the returned function is called. `lost` is called once the store
   * says this process no longer holds the run. A renewal that fails (the store briefly unreachable) is retried on the
   * next beat: the lease is a few beats long, so one miss loses nothing.
   */
  hold(runId: string, lost: () => void): () => void {
    let stopped = false;
    let renewing = false;
    const timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      this.store
        .renewRunLease(runId, this.lease)
        .then(
          (held) => {
            if (!held && !stopped) lost();
          },
          (error: unknown) => this.logger.warn('run lease not renewed', { run_id: runId, error: String(error) }),
        )
        .finally(() => {
          renewing = false;
        });
    }, this.settings.heartbeatMs);
    timer.unref();
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }

  /** Gives the run up at once (a handover): its lease expires now, so the next sweep of any process claims it. */
  release(runId: string): Promise<boolean> {
    return this.store.renewRunLease(runId, { owner: this.owner, ttlMs: 0 });
  }
}
