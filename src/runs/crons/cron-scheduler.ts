import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { CronsConfig } from '../../config/index.ts';
import type { Principal } from '../../domain/index.ts';
import { isEvidentError } from '../../errors/index.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import type { CronRecord, CronTickOutcome, RunRecord } from '../../store/store.ts';
import type { RunRequest } from '../run-request.ts';
import { CronSchedule } from './cron-schedule.ts';
import { cronRefusal, type CronServiceStore } from './cron-service.ts';

/** What the scheduler uses of the run engine: start a run, wait for its end, delete a thread it ran on. */
export interface CronRunEngine {
  start(request: RunRequest): Promise<RunRecord>;
  wait(runId: string, signal: AbortSignal): Promise<RunRecord | undefined>;
  deleteThread(threadId: string, principal: Principal): Promise<void>;
}

export interface CronSchedulerDeps {
  store: CronServiceStore;
  runs: CronRunEngine;
  config: CronsConfig;
  /** The run request a tick makes from the cron's payload, for the principal as the store has it at the tick. */
  requestOf: (cron: CronRecord, principal: Principal, threadId: string) => RunRequest;
  logger?: Logger;
  now?: () => Date;
}

/** Due crons one poll handles at most (the rest wait for the next poll). */
const DUE_PAGE = 50;

/**
 * The scheduler of one server process: every `pollMs` it reads the due crons, claims each one's latest due tick in
 * the store (exactly one process wins a tick, however many share the store), and starts the tick's run through the
 * run engine as the cron's owner — read from the store at the tick, so a removed user, a user no longer allowed to
 * run crons, or a thread they no longer own gets no run; the tick's history says why. Ticks missed while no server
 * ran are not run one by one: the latest of them runs once.
 */
export class CronScheduler {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly deps: CronSchedulerDeps;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly closing = new AbortController();

  constructor(deps: CronSchedulerDeps) {
    this.deps = deps;
    this.logger = deps.logger ?? silentLogger;
    this.now = deps.now ?? (() => new Date());
  }

  start(): void {
    if (this.timer || this.closing.signal.aborted) return;
    this.timer = setInterval(() => void this.poll(), this.deps.config.pollMs);
    this.timer.unref();
    void this.poll();
  }

  /** Stops polling and waits for the poll in progress (runs it started go on in the run engine). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.closing.abort();
    await this.polling;
    await Promise.allSettled([...this.pending]);
  }

  /** One look for due crons; a poll still in progress is not overlapped. Resolves when the ticks it claimed started. */
  poll(): Promise<void> {
    if (!this.polling)
      this.polling = this.pollOnce()
        .catch((error: unknown) => this.logger.warn('cron poll failed', { error: String(error) }))
        .finally(() => {
          this.polling = undefined;
        });
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    const now = this.now();
    for (const cron of await this.deps.store.dueCrons(now.toISOString(), DUE_PAGE)) {
      if (this.closing.signal.aborted) return;
      await this.claimAndRun(cron, now).catch((error: unknown) =>
        this.logger.warn('cron tick failed', { cron_id: cron.cronId, error: String(error) }),
      );
    }
  }

  private async claimAndRun(cron: CronRecord, now: Date): Promise<void> {
    if (!cron.nextRunAt) return;
    let tickAt: Date;
    let next: Date | null;
    try {
      // The minimum interval was checked when the schedule was set; a tick runs what was accepted then.
      const schedule = CronSchedule.parse(cron.schedule, cron.timezone, cron.endTime, 1);
      tickAt = schedule.latestDue(new Date(cron.nextRunAt), now);
      next = schedule.nextAfter(now);
    } catch {
      tickAt = new Date(cron.nextRunAt);
      next = null;
    }
    const claimed = await this.deps.store.claimCronTick({
      cronId: cron.cronId,
      expectedNextRunAt: cron.nextRunAt,
      tickAt: tickAt.toISOString(),
      nextRunAt: next?.toISOString() ?? null,
      claimedBy: this.id,
      keepTicks: this.deps.config.historyLimit,
    });
    if (!claimed) return;
    const outcome = await this.tick(cron.cronId).catch((error: unknown): CronTickOutcome => {
      this.logger.warn('cron tick failed', { cron_id: cron.cronId, error: String(error) });
      return { status: 'failed', reason: reasonOf(error) };
    });
    await this.deps.store.settleCronTick(cron.cronId, tickAt.toISOString(), outcome);
  }

  /** Starts the tick's run as the cron's owner as the store has them now, or says why it does not run. */
  private async tick(cronId: string): Promise<CronTickOutcome> {
    // Read again after the claim: the payload may have changed since the due list was read.
    const cron = await this.deps.store.getCron(cronId);
    if (!cron) return { status: 'skipped', reason: 'not_found: the cron was deleted' };
    const user = await this.deps.store.getUser(cron.owner);
    const principal: Principal | undefined = user
      ? { id: user.name, groups: [...user.groups], roles: [...user.roles] }
      : undefined;
    if (!principal) return { status: 'skipped', reason: `owner_not_found: no user ${cron.owner} in the store` };
    if (user && !user.active) return { status: 'skipped', reason: `owner_not_allowed: ${cron.owner} is deactivated` };
    const refusal = cronRefusal(principal, this.deps.config);
    if (refusal) return { status: 'skipped', reason: `owner_not_allowed: ${refusal}` };
    if (cron.threadId !== null) {
      const thread = await this.deps.store.getThread(cron.threadId);
      if (!thread || thread.owner !== principal.id)
        return { status: 'skipped', reason: `thread_not_found: the thread ${cron.threadId} is not the owner's` };
    }
    const threadId = cron.threadId ?? randomUUID();
    let run: RunRecord;
    try {
      run = await this.deps.runs.start(this.deps.requestOf(cron, principal, threadId));
    } catch (error) {
      // What the run engine refuses for this principal (a busy thread, an assistant they may not run, too many runs).
      if (isEvidentError(error) && error.category === 'user')
        return { status: 'skipped', reason: reasonOf(error), ...(cron.threadId ? { threadId } : {}) };
      throw error;
    }
    if (cron.threadId === null && cron.onRunCompleted === 'delete') this.deleteWhenDone(run, principal);
    return { status: 'started', runId: run.runId, threadId: run.threadId };
  }

  /** A stateless cron's thread is deleted once its run has ended (`on_run_completed: delete`). */
  private deleteWhenDone(run: RunRecord, principal: Principal): void {
    const done = this.deps.runs
      .wait(run.runId, this.closing.signal)
      .then(() => this.deps.runs.deleteThread(run.threadId, principal))
      .catch((error: unknown) =>
        this.logger.warn('cron thread not deleted', { thread_id: run.threadId, error: String(error) }),
      )
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }
}

/**
 * A refusal as a tick's history keeps it (its owner reads it): a user error's code and message; of anything else only
 * its code, as a client would be told (the server's log has the rest).
 */
const reasonOf = (error: unknown): string =>
  isEvidentError(error) && error.category === 'user'
    ? `${error.code}: ${error.message}`
    : `${isEvidentError(error) ? error.code : 'internal'}: the run could not be started; the server's log says why`;
