/**
 * What a thread-less cron does with the thread a tick's run ran on: `keep` it (Evident's default: a run is kept so it
 * can be audited), or `delete` it once the run has ended (LangGraph's default).
 */
export type CronThreadPolicy = 'keep' | 'delete';

/** A scheduled run: who made it, when it fires, and what each tick starts. */
export interface CronRecord {
  cronId: string;
  /** The user who created it; each tick runs with this user's permissions as the store has them at the tick. */
  owner: string;
  /** The assistant each tick runs. */
  assistantId: string;
  /** The thread every tick continues; null for a stateless cron (each tick runs on a new thread). */
  threadId: string | null;
  /** Cron syntax (5 fields, or 6 with seconds first). */
  schedule: string;
  /** IANA time zone the schedule is read in. */
  timezone: string;
  /** No tick at or after this instant (ISO 8601); null for none. */
  endTime: string | null;
  enabled: boolean;
  onRunCompleted: CronThreadPolicy;
  /** The run request each tick makes (input, config, metadata, webhook, multitask strategy…), as the client sent it. */
  payload: Record<string, unknown>;
  /** The client's own key/values. */
  metadata: Record<string, unknown>;
  /** The next tick to run (ISO 8601); null when there is none (past the end time, or disabled). */
  nextRunAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What creating a cron records: everything but the times the store sets. */
export type CronCreate = Omit<CronRecord, 'createdAt' | 'updatedAt'>;

/** What an update may change; absent fields stay as they are. `nextRunAt` is recomputed by the caller. */
export type CronPatch = Partial<
  Pick<
    CronRecord,
    'schedule' | 'timezone' | 'endTime' | 'enabled' | 'onRunCompleted' | 'payload' | 'metadata' | 'nextRunAt'
  >
>;

export const CRON_SORT_FIELDS = [
  'cron_id',
  'assistant_id',
  'thread_id',
  'created_at',
  'updated_at',
  'next_run_date',
] as const;
export type CronSortField = (typeof CRON_SORT_FIELDS)[number];

/** A listing of crons. Without `owner`, every user's crons (an admin's listing). */
export interface CronQuery {
  owner?: string;
  assistantId?: string;
  threadId?: string;
  enabled?: boolean;
  /** Exact match of each key's value (text, number, boolean or null). */
  metadata?: Record<string, string | number | boolean | null>;
  /** 1–1000 (10 unless given). */
  limit?: number;
  offset?: number;
  sortBy?: CronSortField;
  sortOrder?: 'asc' | 'desc';
}

/** A tick's state: `claimed` while its scheduler starts it; then `started` (a run), `skipped` or `failed` (why). */
export type CronTickStatus = 'claimed' | 'started' | 'skipped' | 'failed';

/** One tick of a cron, as its history shows it. */
export interface CronTickRecord {
  cronId: string;
  /** The scheduled instant this tick stands for. */
  tickAt: string;
  status: CronTickStatus;
  /** The scheduler (process) that claimed it. */
  claimedBy: string;
  claimedAt: string;
  runId?: string;
  threadId?: string;
  /** Why it was skipped or failed: an error code, a colon, a message. */
  reason?: string;
  updatedAt: string;
}

/** A scheduler's claim on a due tick. */
export interface CronTickClaim {
  cronId: string;
  /** The `nextRunAt` the scheduler read: the claim succeeds only while the cron still has it. */
  expectedNextRunAt: string;
  /** The tick it runs (the latest one due: missed earlier ticks are not run one by one). */
  tickAt: string;
  /** The tick after it, stored as the cron's `nextRunAt` (null: none). */
  nextRunAt: string | null;
  claimedBy: string;
  /** Ticks of the cron's history kept (the oldest beyond this are deleted with the claim). */
  keepTicks: number;
}

/** How a claimed tick ended. */
export type CronTickOutcome =
  | { status: 'started'; runId: string; threadId: string }
  | { status: 'skipped' | 'failed'; reason: string; threadId?: string };

/**
 * Scheduled runs and their history. The owner is named in every change (`updateCron`, `deleteCron`), so a user can
 * change only their own crons; reads by id return the cron whoever owns it (callers decide who may see it). A tick is
 * claimed by exactly one scheduler however many servers share the store: `claimCronTick` moves the cron's `nextRunAt`
 * on only from the value the scheduler read, and records the tick under the key `(cron_id, tick_at)`, in one
 * transaction.
 */
export interface CronStore {
  /** Records a new cron; refused (`invalid_input`) when its owner already has `maxPerOwner` crons, atomically. */
  createCron(cron: CronCreate, maxPerOwner: number): Promise<CronRecord>;
  getCron(cronId: string): Promise<CronRecord | undefined>;
  /** Crons matching the query, sorted (`created_at` newest first unless given), one page. */
  listCrons(query: CronQuery): Promise<CronRecord[]>;
  /** How many crons match the query (its page fields aside). */
  countCrons(query: CronQuery): Promise<number>;
  /** Changes the owner's cron; undefined when `owner` has no cron with that id. */
  updateCron(cronId: string, owner: string, patch: CronPatch): Promise<CronRecord | undefined>;
  /** Deletes the owner's cron and its history; false when `owner` has no cron with that id. */
  deleteCron(cronId: string, owner: string): Promise<boolean>;
  /** Enabled crons whose `nextRunAt` is at or before `now`, earliest first, at most `limit`. */
  dueCrons(now: string, limit: number): Promise<CronRecord[]>;
  /** Claims a due tick; true for exactly one of any number of concurrent claimers of the same tick. */
  claimCronTick(claim: CronTickClaim): Promise<boolean>;
  /** Records how a claimed tick ended. */
  settleCronTick(cronId: string, tickAt: string, outcome: CronTickOutcome): Promise<void>;
  /** The cron's ticks, newest first, at most `limit` (1–1000). */
  listCronTicks(cronId: string, limit: number): Promise<CronTickRecord[]>;
}
