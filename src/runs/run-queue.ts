import type { Logger } from '../logging/logger.ts';
import type { ClaimedRun, RunLog } from '../store/store.ts';
import type { AgentDefinition } from './agent-definition.ts';
import type { RunLeases } from './run-lease.ts';

export interface RunQueueDeps {
  store: Pick<RunLog, 'listStartableRuns' | 'claimPendingRun'>;
  agents: ReadonlyMap<string, AgentDefinition>;
  leases: RunLeases;
  logger: Logger;
  /** A place for one more run of `user` in this process (its run limits), or undefined when there is none now. */
  admit(user: string): (() => void) | undefined;
  /** Executes a run this process claimed; `release` gives its place back once it ends. */
  execute(claimed: ClaimedRun, release: () => void): void;
}

/**
 * Starts queued runs (`enqueue`) whose turn has come, whichever process queued them: at start-up, every heartbeat
 * (a run that ended in another process, or whose process died and whose orphan recovery ended), and at once when a
 * run ends here (`poke`). The claim is atomic in the store, so of several processes sweeping one queue, one starts
 * each run, exactly once. Runs of an agent this process does not serve, or over its run limits, are left to another
 * process or to a later sweep.
 */
export class RunQueue {
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly deps: RunQueueDeps) {}

  start(): void {
    void this.poke();
    this.timer = setInterval(() => void this.poke(), this.deps.leases.settings.heartbeatMs);
    this.timer.unref();
  }

  /** One pass over the startable runs; asked again during a pass, one more pass follows it. */
  poke(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        await this.drain();
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  /** No further passes; resolves once the one under way has handed what it claimed to the run manager. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.draining;
  }

  private async drain(): Promise<void> {
    const { store, agents, leases, logger } = this.deps;
    try {
      for (const run of await store.listStartableRuns()) {
        if (this.stopped) return;
        if (!agents.has(run.agent)) continue;
        const release = this.deps.admit(run.user);
        if (!release) continue;
        const claimed = await store.claimPendingRun(run.runId, leases.lease).catch((error: unknown) => {
          release();
          throw error;
        });
        if (!claimed) {
          release();
          continue;
        }
        logger.info('starting a queued run', { run_id: run.runId, thread_id: run.threadId });
        this.deps.execute(claimed, release);
      }
    } catch (error) {
      // The store briefly unreachable: the next beat sweeps again.
      logger.warn('queued runs not swept', { error: String(error) });
    }
  }
}
