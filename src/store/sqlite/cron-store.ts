import type {
  CronQuery,
  CronRecord,
  CronStore,
  CronThreadPolicy,
  CronTickRecord,
  CronTickStatus,
} from '../ports/cron-store.ts';
import { cronQueryParts, storedReason, tooManyCrons, validateCronCreate, validateTickLimit } from '../cron-rules.ts';
import type { SqliteConnection } from './connection.ts';

interface CronRow {
  cron_id: string;
  owner: string;
  assistant_id: string;
  thread_id: string | null;
  schedule: string;
  timezone: string;
  end_time: string | null;
  enabled: number;
  on_run_completed: CronThreadPolicy;
  payload: string;
  metadata: string;
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

interface TickRow {
  cron_id: string;
  tick_at: string;
  status: CronTickStatus;
  claimed_by: string;
  claimed_at: string;
  run_id: string | null;
  thread_id: string | null;
  reason: string | null;
  updated_at: string;
}

const toCron = (row: CronRow): CronRecord => ({
  cronId: row.cron_id,
  owner: row.owner,
  assistantId: row.assistant_id,
  threadId: row.thread_id,
  schedule: row.schedule,
  timezone: row.timezone,
  endTime: row.end_time,
  enabled: row.enabled === 1,
  onRunCompleted: row.on_run_completed,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  nextRunAt: row.next_run_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toTick = (row: TickRow): CronTickRecord => ({
  cronId: row.cron_id,
  tickAt: row.tick_at,
  status: row.status,
  claimedBy: row.claimed_by,
  claimedAt: row.claimed_at,
  ...(row.run_id === null ? {} : { runId: row.run_id }),
  ...(row.thread_id === null ? {} : { threadId: row.thread_id }),
  ...(row.reason === null ? {} : { reason: row.reason }),
  updatedAt: row.updated_at,
});

/** Instants as stored: ISO 8601 in UTC with milliseconds, so text order is time order. */
const iso = (time: string): string => new Date(time).toISOString();
const isoOrNull = (time: string | null): string | null => (time === null ? null : iso(time));

/** The WHERE clause and parameters of a listing (page fields aside); every filter is a bound parameter. */
function whereOf(query: CronQuery, metadata: [string, unknown][]): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    params.push(value);
  };
  if (query.owner !== undefined) add('owner = ?', query.owner);
  if (query.assistantId !== undefined) add('assistant_id = ?', query.assistantId);
  if (query.threadId !== undefined) add('thread_id = ?', query.threadId);
  if (query.enabled !== undefined) add('enabled = ?', query.enabled ? 1 : 0);
  for (const [key, value] of metadata) {
    // Same JSON type and same value: a boolean never matches a number, text never matches a number.
    const path = `$."${key}"`;
    clauses.push("json_type(metadata, ?) IS json_type(?, '$') AND json_extract(metadata, ?) IS json_extract(?, '$')");
    const json = JSON.stringify(value);
    params.push(path, json, path, json);
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const COLUMNS =
  'cron_id, owner, assistant_id, thread_id, schedule, timezone, end_time, enabled, on_run_completed, payload, metadata, next_run_at, created_at, updated_at';

/** Crons on SQLite (tables `crons`, `cron_ticks`); a claim is one IMMEDIATE transaction, so processes on one file agree. */
export function sqliteCronStore(conn: SqliteConnection): CronStore {
  const stmt = (sql: string) => conn.stmt(sql);
  const getCron = (cronId: string): CronRecord | undefined => {
    const row = stmt(`SELECT ${COLUMNS} FROM crons WHERE cron_id = ?`).get(cronId) as CronRow | undefined;
    return row ? toCron(row) : undefined;
  };

  return {
    async createCron(cron, maxPerOwner) {
      conn.assertWritable();
      return conn.guard('create a cron', () => {
        validateCronCreate(cron, maxPerOwner);
        const now = new Date().toISOString();
        return conn.immediate(() => {
          const { count } = stmt('SELECT count(*) AS count FROM crons WHERE owner = ?').get(cron.owner) as {
            count: number;
          };
          if (count >= maxPerOwner) throw tooManyCrons(cron.owner, maxPerOwner);
          stmt(`INSERT INTO crons (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
            cron.cronId,
            cron.owner,
            cron.assistantId,
            cron.threadId,
            cron.schedule,
            cron.timezone,
            isoOrNull(cron.endTime),
            cron.enabled ? 1 : 0,
            cron.onRunCompleted,
            JSON.stringify(cron.payload),
            JSON.stringify(cron.metadata),
            isoOrNull(cron.nextRunAt),
            now,
            now,
          );
          return getCron(cron.cronId) as CronRecord;
        });
      });
    },

    async getCron(cronId) {
      conn.assertOpen();
      return conn.guard('read a cron', () => getCron(cronId));
    },

    async listCrons(query) {
      conn.assertOpen();
      return conn.guard('list crons', () => {
        const { limit, offset, order, metadata } = cronQueryParts(query);
        const where = whereOf(query, metadata);
        const rows = conn.db
          .prepare(`SELECT ${COLUMNS} FROM crons ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
          .all(...where.params, limit, offset) as CronRow[];
        return rows.map(toCron);
      });
    },

    async countCrons(query) {
      conn.assertOpen();
      return conn.guard('count crons', () => {
        const where = whereOf(query, cronQueryParts({ ...query, limit: 1, offset: 0 }).metadata);
        return (
          conn.db.prepare(`SELECT count(*) AS count FROM crons ${where.sql}`).get(...where.params) as { count: number }
        ).count;
      });
    },

    async updateCron(cronId, owner, patch) {
      conn.assertWritable();
      return conn.guard('update a cron', () =>
        conn.immediate(() => {
          const current = getCron(cronId);
          if (!current || current.owner !== owner) return undefined;
          const next = { ...current, ...patch };
          stmt(
            `UPDATE crons SET schedule = ?, timezone = ?, end_time = ?, enabled = ?, on_run_completed = ?, payload = ?,
             metadata = ?, next_run_at = ?, updated_at = ? WHERE cron_id = ? AND owner = ?`,
          ).run(
            next.schedule,
            next.timezone,
            isoOrNull(next.endTime),
            next.enabled ? 1 : 0,
            next.onRunCompleted,
            JSON.stringify(next.payload),
            JSON.stringify(next.metadata),
            isoOrNull(next.nextRunAt),
            new Date().toISOString(),
            cronId,
            owner,
          );
          return getCron(cronId);
        }),
      );
    },

    async deleteCron(cronId, owner) {
      conn.assertWritable();
      return conn.guard('delete a cron', () =>
        conn.immediate(() => {
          stmt(
            'DELETE FROM cron_ticks WHERE cron_id IN (SELECT cron_id FROM crons WHERE cron_id = ? AND owner = ?)',
          ).run(cronId, owner);
          return stmt('DELETE FROM crons WHERE cron_id = ? AND owner = ?').run(cronId, owner).changes > 0;
        }),
      );
    },

    async dueCrons(now, limit) {
      conn.assertOpen();
      return conn.guard('list due crons', () =>
        (
          stmt(
            `SELECT ${COLUMNS} FROM crons WHERE enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= ?
             ORDER BY next_run_at, cron_id LIMIT ?`,
          ).all(iso(now), limit) as CronRow[]
        ).map(toCron),
      );
    },

    async claimCronTick(claim) {
      conn.assertWritable();
      return conn.guard('claim a cron tick', () => {
        const now = new Date().toISOString();
        return conn.immediate(() => {
          const moved = stmt(
            'UPDATE crons SET next_run_at = ? WHERE cron_id = ? AND enabled = 1 AND next_run_at = ?',
          ).run(isoOrNull(claim.nextRunAt), claim.cronId, iso(claim.expectedNextRunAt));
          if (moved.changes === 0) return false;
          // The cron has moved on either way; a tick already in its history (an update set the schedule back onto
          // it) is not run twice.
          const inserted = stmt(
            `INSERT INTO cron_ticks (cron_id, tick_at, status, claimed_by, claimed_at, updated_at)
             VALUES (?, ?, 'claimed', ?, ?, ?) ON CONFLICT DO NOTHING`,
          ).run(claim.cronId, iso(claim.tickAt), claim.claimedBy, now, now);
          stmt(
            `DELETE FROM cron_ticks WHERE cron_id = ? AND tick_at NOT IN
             (SELECT tick_at FROM cron_ticks WHERE cron_id = ? ORDER BY tick_at DESC LIMIT ?)`,
          ).run(claim.cronId, claim.cronId, Math.max(1, claim.keepTicks));
          return inserted.changes > 0;
        });
      });
    },

    async settleCronTick(cronId, tickAt, outcome) {
      conn.assertWritable();
      conn.guard('record a cron tick', () => {
        stmt(
          'UPDATE cron_ticks SET status = ?, run_id = ?, thread_id = ?, reason = ?, updated_at = ? WHERE cron_id = ? AND tick_at = ?',
        ).run(
          outcome.status,
          outcome.status === 'started' ? outcome.runId : null,
          outcome.threadId ?? null,
          storedReason(outcome),
          new Date().toISOString(),
          cronId,
          iso(tickAt),
        );
      });
    },

    async listCronTicks(cronId, limit) {
      conn.assertOpen();
      return conn.guard('list cron ticks', () => {
        validateTickLimit(limit);
        return (
          stmt(
            `SELECT cron_id, tick_at, status, claimed_by, claimed_at, run_id, thread_id, reason, updated_at
             FROM cron_ticks WHERE cron_id = ? ORDER BY tick_at DESC LIMIT ?`,
          ).all(cronId, limit) as TickRow[]
        ).map(toTick);
      });
    },
  };
}
