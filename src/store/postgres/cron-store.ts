import type { PoolClient } from 'pg';
import type {
  CronQuery,
  CronRecord,
  CronStore,
  CronThreadPolicy,
  CronTickRecord,
  CronTickStatus,
} from '../ports/cron-store.ts';
import { cronQueryParts, storedReason, tooManyCrons, validateCronCreate, validateTickLimit } from '../cron-rules.ts';
import type { PostgresPool } from './pool.ts';

interface CronRow {
  cron_id: string;
  owner: string;
  assistant_id: string;
  thread_id: string | null;
  schedule: string;
  timezone: string;
  end_time: Date | null;
  enabled: boolean;
  on_run_completed: CronThreadPolicy;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  next_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface TickRow {
  cron_id: string;
  tick_at: Date;
  status: CronTickStatus;
  claimed_by: string;
  claimed_at: Date;
  run_id: string | null;
  thread_id: string | null;
  reason: string | null;
  updated_at: Date;
}

const isoOrNull = (time: Date | null): string | null => (time === null ? null : time.toISOString());

const toCron = (row: CronRow): CronRecord => ({
  cronId: row.cron_id,
  owner: row.owner,
  assistantId: row.assistant_id,
  threadId: row.thread_id,
  schedule: row.schedule,
  timezone: row.timezone,
  endTime: isoOrNull(row.end_time),
  enabled: row.enabled,
  onRunCompleted: row.on_run_completed,
  payload: row.payload,
  metadata: row.metadata,
  nextRunAt: isoOrNull(row.next_run_at),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const toTick = (row: TickRow): CronTickRecord => ({
  cronId: row.cron_id,
  tickAt: row.tick_at.toISOString(),
  status: row.status,
  claimedBy: row.claimed_by,
  claimedAt: row.claimed_at.toISOString(),
  ...(row.run_id === null ? {} : { runId: row.run_id }),
  ...(row.thread_id === null ? {} : { threadId: row.thread_id }),
  ...(row.reason === null ? {} : { reason: row.reason }),
  updatedAt: row.updated_at.toISOString(),
});

const COLUMNS =
  'cron_id, owner, assistant_id, thread_id, schedule, timezone, end_time, enabled, on_run_completed, payload, metadata, next_run_at, created_at, updated_at';

/** The WHERE clause and parameters of a listing (page fields aside); every filter is a bound parameter. */
function whereOf(query: CronQuery, metadata: [string, unknown][]): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (query.owner !== undefined) add((n) => `owner = ${n}`, query.owner);
  if (query.assistantId !== undefined) add((n) => `assistant_id = ${n}`, query.assistantId);
  if (query.threadId !== undefined) add((n) => `thread_id = ${n}`, query.threadId);
  if (query.enabled !== undefined) add((n) => `enabled = ${n}`, query.enabled);
  // A scalar per key: equality of the JSON values (a boolean never matches a number, text never matches a number).
  for (const [key, value] of metadata) {
    params.push(key);
    const k = `$${params.length}`;
    add((n) => `metadata -> ${k} = ${n}::jsonb`, JSON.stringify(value));
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const getCron = async (c: PoolClient, cronId: string): Promise<CronRecord | undefined> => {
  const row = (await c.query<CronRow>(`SELECT ${COLUMNS} FROM crons WHERE cron_id = $1`, [cronId])).rows[0];
  return row ? toCron(row) : undefined;
};

/**
 * Crons on PostgreSQL. A creation locks the owner's count with an advisory lock on the owner, so concurrent creations
 * cannot pass the bound together; a claim is one transaction (compare-and-set, then the tick's row).
 */
export function postgresCronStore(pool: PostgresPool): CronStore {
  return {
    async createCron(cron, maxPerOwner) {
      validateCronCreate(cron, maxPerOwner);
      return pool.transaction('create a cron', async (c) => {
        await c.query("SELECT pg_advisory_xact_lock(hashtext('evident.crons:' || $1))", [cron.owner]);
        const count = Number(
          (await c.query<{ count: string }>('SELECT count(*) AS count FROM crons WHERE owner = $1', [cron.owner]))
            .rows[0]?.count ?? 0,
        );
        if (count >= maxPerOwner) throw tooManyCrons(cron.owner, maxPerOwner);
        await c.query(
          `INSERT INTO crons (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now(), now())`,
          [
            cron.cronId,
            cron.owner,
            cron.assistantId,
            cron.threadId,
            cron.schedule,
            cron.timezone,
            cron.endTime,
            cron.enabled,
            cron.onRunCompleted,
            JSON.stringify(cron.payload),
            JSON.stringify(cron.metadata),
            cron.nextRunAt,
          ],
        );
        return (await getCron(c, cron.cronId)) as CronRecord;
      });
    },

    getCron: (cronId) => pool.withClient('read a cron', (c) => getCron(c, cronId)),

    async listCrons(query) {
      const { limit, offset, order, metadata } = cronQueryParts(query);
      const where = whereOf(query, metadata);
      const n = where.params.length;
      return pool.withClient('list crons', async (c) =>
        (
          await c.query<CronRow>(
            `SELECT ${COLUMNS} FROM crons ${where.sql} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
            [...where.params, limit, offset],
          )
        ).rows.map(toCron),
      );
    },

    async countCrons(query) {
      const where = whereOf(query, cronQueryParts({ ...query, limit: 1, offset: 0 }).metadata);
      return pool.withClient('count crons', async (c) =>
        Number(
          (await c.query<{ count: string }>(`SELECT count(*) AS count FROM crons ${where.sql}`, where.params)).rows[0]
            ?.count ?? 0,
        ),
      );
    },

    updateCron: (cronId, owner, patch) =>
      pool.transaction('update a cron', async (c) => {
        const current = (
          await c.query<CronRow>(`SELECT ${COLUMNS} FROM crons WHERE cron_id = $1 AND owner = $2 FOR UPDATE`, [
            cronId,
            owner,
          ])
        ).rows[0];
        if (!current) return undefined;
        const next = { ...toCron(current), ...patch };
        await c.query(
          `UPDATE crons SET schedule = $3, timezone = $4, end_time = $5, enabled = $6, on_run_completed = $7,
           payload = $8, metadata = $9, next_run_at = $10, updated_at = now() WHERE cron_id = $1 AND owner = $2`,
          [
            cronId,
            owner,
            next.schedule,
            next.timezone,
            next.endTime,
            next.enabled,
            next.onRunCompleted,
            JSON.stringify(next.payload),
            JSON.stringify(next.metadata),
            next.nextRunAt,
          ],
        );
        return getCron(c, cronId);
      }),

    deleteCron: (cronId, owner) =>
      pool.transaction('delete a cron', async (c) => {
        const deleted = await c.query('DELETE FROM crons WHERE cron_id = $1 AND owner = $2', [cronId, owner]);
        return (deleted.rowCount ?? 0) > 0;
      }),

    dueCrons: (now, limit) =>
      pool.withClient('list due crons', async (c) =>
        (
          await c.query<CronRow>(
            `SELECT ${COLUMNS} FROM crons WHERE enabled AND next_run_at IS NOT NULL AND next_run_at <= $1
             ORDER BY next_run_at, cron_id LIMIT $2`,
            [now, limit],
          )
        ).rows.map(toCron),
      ),

    claimCronTick: (claim) =>
      pool.transaction('claim a cron tick', async (c) => {
        const moved = await c.query(
          'UPDATE crons SET next_run_at = $3 WHERE cron_id = $1 AND enabled AND next_run_at = $2',
          [claim.cronId, claim.expectedNextRunAt, claim.nextRunAt],
        );
        if ((moved.rowCount ?? 0) === 0) return false;
        // The cron has moved on either way; a tick already in its history (an update set the schedule back onto it)
        // is not run twice.
        const inserted = await c.query(
          `INSERT INTO cron_ticks (cron_id, tick_at, status, claimed_by, claimed_at, updated_at)
           VALUES ($1, $2, 'claimed', $3, now(), now()) ON CONFLICT DO NOTHING`,
          [claim.cronId, claim.tickAt, claim.claimedBy],
        );
        await c.query(
          `DELETE FROM cron_ticks WHERE cron_id = $1 AND tick_at NOT IN
           (SELECT tick_at FROM cron_ticks WHERE cron_id = $1 ORDER BY tick_at DESC LIMIT $2)`,
          [claim.cronId, Math.max(1, claim.keepTicks)],
        );
        return (inserted.rowCount ?? 0) > 0;
      }),

    async settleCronTick(cronId, tickAt, outcome) {
      await pool.withClient('record a cron tick', (c) =>
        c.query(
          `UPDATE cron_ticks SET status = $3, run_id = $4, thread_id = $5, reason = $6, updated_at = now()
           WHERE cron_id = $1 AND tick_at = $2`,
          [
            cronId,
            tickAt,
            outcome.status,
            outcome.status === 'started' ? outcome.runId : null,
            outcome.threadId ?? null,
            storedReason(outcome),
          ],
        ),
      );
    },

    async listCronTicks(cronId, limit) {
      validateTickLimit(limit);
      return pool.withClient('list cron ticks', async (c) =>
        (
          await c.query<TickRow>(
            `SELECT cron_id, tick_at, status, claimed_by, claimed_at, run_id, thread_id, reason, updated_at
             FROM cron_ticks WHERE cron_id = $1 ORDER BY tick_at DESC LIMIT $2`,
            [cronId, limit],
          )
        ).rows.map(toTick),
      );
    },
  };
}
