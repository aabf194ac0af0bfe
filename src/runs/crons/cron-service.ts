import { randomUUID } from 'node:crypto';
import type { CronsConfig } from '../../config/index.ts';
import { isAdmin, type Principal } from '../../domain/index.ts';
import { NotFoundError, ValidationError } from '../../errors/index.ts';
import type {
  CronPatch,
  CronQuery,
  CronRecord,
  CronStore,
  CronThreadPolicy,
  CronTickRecord,
  PrincipalStore,
  RunLog,
} from '../../store/store.ts';
import { ownThread } from '../run-access.ts';
import { CronSchedule } from './cron-schedule.ts';

/** What the cron service uses of the store: crons, the threads they run on, and users as they are now. */
export type CronServiceStore = CronStore & Pick<RunLog, 'getThread'> & Pick<PrincipalStore, 'getUser'>;

/** What a client asks a new cron to be. */
export interface CronInput {
  assistantId: string;
  /** The thread every tick continues; null: each tick runs on a new thread. */
  threadId: string | null;
  schedule: string;
  timezone?: string;
  endTime?: string | null;
  enabled?: boolean;
  onRunCompleted?: CronThreadPolicy;
  /** The run request each tick makes (input, config, metadata, webhook, multitask strategy…). */
  payload: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** What an update may change. */
export type CronChange = Partial<Omit<CronInput, 'assistantId' | 'threadId' | 'payload'>> & {
  /** Fields of the run payload to replace (the others stay). */
  payload?: Record<string, unknown>;
};

export interface CronServiceDeps {
  store: CronServiceStore;
  config: CronsConfig;
  /** Refuses (throws) an assistant the principal may not run, or a payload that is no valid run request. */
  checkRun: (assistantId: string, payload: Record<string, unknown>, principal: Principal) => void | Promise<void>;
  now?: () => Date;
}

/** Why a user may not have crons (not a stored user, or not in `crons.groups`), or undefined when they may. */
export function cronRefusal(user: Principal | undefined, config: CronsConfig): string | undefined {
  if (!user) return 'crons run as a stored user, and this principal is none';
  if (config.groups.length === 0 || isAdmin(user)) return undefined;
  return user.groups.some((group) => config.groups.includes(group))
    ? undefined
    : `only members of ${config.groups.join(', ')} may run crons`;
}

const notFound = (cronId: string): NotFoundError =>
  new NotFoundError('cron', cronId, 'List your crons with POST /runs/crons/search (or `evident crons list`).');

/**
 * Crons as their owners see them: create (validated and bounded), read, list, count, update, delete and history. A
 * cron is its owner's: anyone else gets the answer a missing cron gets; admins may read and list every cron.
 */
export class CronService {
  private readonly store: CronServiceStore;
  private readonly config: CronsConfig;
  private readonly checkRun: CronServiceDeps['checkRun'];
  private readonly now: () => Date;

  constructor(deps: CronServiceDeps) {
    this.store = deps.store;
    this.config = deps.config;
    this.checkRun = deps.checkRun;
    this.now = deps.now ?? (() => new Date());
  }

  async create(principal: Principal, input: CronInput): Promise<CronRecord> {
    await this.assertMayRunCrons(principal);
    if (input.threadId !== null) await ownThread(this.store, input.threadId, principal);
    this.assertPayloadWithin(input.payload);
    await this.checkRun(input.assistantId, input.payload, principal);
    const timezone = input.timezone ?? 'UTC';
    const endTime = input.endTime ?? null;
    const schedule = CronSchedule.parse(input.schedule, timezone, endTime, this.config.minIntervalSeconds);
    const enabled = input.enabled ?? true;
    return this.store.createCron(
      {
        cronId: randomUUID(),
        owner: principal.id,
        assistantId: input.assistantId,
        threadId: input.threadId,
        schedule: schedule.schedule,
        timezone,
        endTime,
        enabled,
        onRunCompleted: input.onRunCompleted ?? 'keep',
        payload: input.payload,
        metadata: input.metadata ?? {},
        nextRunAt: schedule.nextAfter(this.now())?.toISOString() ?? null,
      },
      this.config.maxPerUser,
    );
  }

  /** The cron, for its owner or an admin. */
  async get(principal: Principal, cronId: string): Promise<CronRecord> {
    const cron = await this.store.getCron(cronId);
    if (!cron || (cron.owner !== principal.id && !isAdmin(principal))) throw notFound(cronId);
    return cron;
  }

  /** The principal's crons; an admin's search covers every user's. */
  search(principal: Principal, query: Omit<CronQuery, 'owner'>): Promise<CronRecord[]> {
    return this.store.listCrons(this.scoped(principal, query));
  }

  count(principal: Principal, query: Omit<CronQuery, 'owner' | 'limit' | 'offset'>): Promise<number> {
    return this.store.countCrons(this.scoped(principal, query));
  }

  /** Changes the owner's cron (nobody else's, admins included); a new schedule or re-enabling starts from now. */
  async update(principal: Principal, cronId: string, change: CronChange): Promise<CronRecord> {
    const current = await this.store.getCron(cronId);
    if (!current || current.owner !== principal.id) throw notFound(cronId);
    // A user who may no longer run crons can still switch theirs off (or delete it), nothing else.
    const onlyStops = Object.keys(change).every((key) => key === 'enabled') && change.enabled === false;
    if (!onlyStops) await this.assertMayRunCrons(principal);
    const payload = change.payload ? { ...current.payload, ...change.payload } : current.payload;
    if (change.payload) {
      this.assertPayloadWithin(payload);
      await this.checkRun(current.assistantId, payload, principal);
    }
    const timezone = change.timezone ?? current.timezone;
    const endTime = change.endTime === undefined ? current.endTime : change.endTime;
    const scheduleText = change.schedule ?? current.schedule;
    const enabled = change.enabled ?? current.enabled;
    const timing =
      change.schedule !== undefined ||
      change.timezone !== undefined ||
      change.endTime !== undefined ||
      (enabled && !current.enabled);
    const patch: CronPatch = {
      ...(change.enabled === undefined ? {} : { enabled }),
      ...(change.onRunCompleted === undefined ? {} : { onRunCompleted: change.onRunCompleted }),
      ...(change.metadata === undefined ? {} : { metadata: change.metadata }),
      ...(change.payload ? { payload } : {}),
    };
    if (timing) {
      // The minimum interval applies to a schedule as it is now, whatever it was when the cron was made.
      const schedule = CronSchedule.parse(scheduleText, timezone, endTime, this.config.minIntervalSeconds);
      Object.assign(patch, {
        schedule: schedule.schedule,
        timezone,
        endTime,
        nextRunAt: schedule.nextAfter(this.now())?.toISOString() ?? null,
      });
    }
    const updated = await this.store.updateCron(cronId, principal.id, patch);
    if (!updated) throw notFound(cronId);
    return updated;
  }

  /** Deletes the owner's cron and its history (an admin deletes only their own). */
  async delete(principal: Principal, cronId: string): Promise<void> {
    if (!(await this.store.deleteCron(cronId, principal.id))) throw notFound(cronId);
  }

  /** The cron's ticks, newest first: which run each started, or why it was skipped. */
  async history(principal: Principal, cronId: string, limit: number): Promise<CronTickRecord[]> {
    await this.get(principal, cronId);
    return this.store.listCronTicks(cronId, limit);
  }

  private scoped<T extends Omit<CronQuery, 'owner'>>(principal: Principal, query: T): CronQuery {
    return isAdmin(principal) ? query : { ...query, owner: principal.id };
  }

  /** A cron runs as a stored user (read now, as every tick reads it), in `crons.groups` when that is set. */
  private async assertMayRunCrons(principal: Principal): Promise<void> {
    const user = await this.store.getUser(principal.id);
    const refusal = cronRefusal(
      user?.active ? { id: user.name, groups: [...user.groups], roles: [...user.roles] } : undefined,
      this.config,
    );
    if (refusal)
      throw new ValidationError(`${principal.id} may not create crons: ${refusal}.`, {
        hint: 'Use the key of a stored user (`evident keys create <user>`) who may run crons.',
      });
  }

  private assertPayloadWithin(payload: Record<string, unknown>): void {
    const bytes = Buffer.byteLength(JSON.stringify(payload));
    if (bytes > this.config.maxPayloadBytes)
      throw new ValidationError(
        `The cron's run payload is ${bytes} bytes, more than the ${this.config.maxPayloadBytes} a cron may carry.`,
        { hint: 'Send a shorter input (a cron asks a question; the documents are in the store).' },
      );
  }
}
