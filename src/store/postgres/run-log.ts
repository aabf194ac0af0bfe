import type { PoolClient } from 'pg';
import type {
  MultitaskStrategy,
  RunEventRecord,
  RunLog,
  RunRecord,
  RunRecordStatus,
  ThreadRecord,
} from '../ports/run-log.ts';
import {
  DEFAULT_ORPHAN_LIMIT,
  DEFAULT_RUN_EVENT_LIMIT,
  checkLeaseHeld,
  checkRunStart,
  checkThreadCreated,
  endEvent,
  requireRun,
  runDuration,
  runEventsRefused,
  threadAgent,
  toThreadSummary,
  supersededOrphan,
  validateLease,
  validateRunStart,
  validateThreadCreate,
} from '../run-rules.ts';
import type { PostgresPool } from './pool.ts';
import { postgresRunQueueLog } from './run-queue-log.ts';
import { runAssistantOf } from '../run-assistant.ts';
import { recordPostgresRunAssistant } from './run-assistant.ts';
import { insertPostgresRunWebhook } from './run-webhook-log.ts';

interface RunRow {
  run_id: string;
  thread_id: string;
  agent: string;
  user_name: string;
  question: string;
  status: RunRecordStatus;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
  duration_ms: number | null;
  cancel_requested: boolean;
  attempt: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  assistant_id: string | null;
  assistant_version: number | null;
  multitask_strategy: MultitaskStrategy;
}

interface ThreadRow {
  thread_id: string;
  agent: string;
  owner: string;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

interface ThreadSummaryRow extends ThreadRow {
  last_question: string | null;
  last_status: RunRecordStatus | null;
  run_count: number;
}

const THREAD_COLUMNS = 't.thread_id, t.agent, t.owner, t.metadata, t.created_at, t.updated_at';
const RUN_COLUMNS =
  'r.run_id, r.thread_id, r.agent, r.user_name, r.question, r.status, r.error, r.started_at, r.finished_at, r.duration_ms, r.cancel_requested, r.attempt, r.lease_owner, r.lease_expires_at, r.assistant_id, r.assistant_version, r.multitask_strategy';

/**
 * Leases run on the database's clock (`now()`, the transaction's start), so servers whose clocks disagree agree on
 * expiry. None (a run from before leases) counts as expired. `leaseExpiry` in run-rules is the same sum in JS.
 */
const EXPIRED_LEASE = `r.status = 'running' AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= now())`;
const expiryAfter = (param: string) => `now() + ${param} * interval '1 millisecond'`;
/** Whether the thread has a queued run (a start is then refused, as on a running one). */
const hasPending = async (c: PoolClient, threadId: string): Promise<boolean> =>
  (await c.query("SELECT 1 FROM runs WHERE thread_id = $1 AND status = 'pending' LIMIT 1", [threadId])).rows.length > 0;

const toThreadRecord = (row: ThreadRow): ThreadRecord => ({
  threadId: row.thread_id,
  agent: threadAgent(row.agent),
  owner: row.owner,
  metadata: row.metadata,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const toRunRecord = (row: RunRow): RunRecord => ({
  runId: row.run_id,
  threadId: row.thread_id,
  agent: row.agent,
  user: row.user_name,
  question: row.question,
  status: row.status,
  multitaskStrategy: row.multitask_strategy,
  attempt: row.attempt,
  ...(row.lease_owner === null || row.lease_expires_at === null
    ? {}
    : { lease: { owner: row.lease_owner, expiresAt: row.lease_expires_at.toISOString() } }),
  ...(row.error === null ? {} : { error: row.error }),
  startedAt: row.started_at.toISOString(),
  ...(row.finished_at === null ? {} : { finishedAt: row.finished_at.toISOString() }),
  ...(row.duration_ms === null ? {} : { durationMs: row.duration_ms }),
  ...(row.cancel_requested ? { cancelRequested: true as const } : {}),
  ...runAssistantOf(row),
});

const getRun = async (c: PoolClient, runId: string): Promise<RunRecord | undefined> => {
  const row = (await c.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.run_id = $1`, [runId])).rows[0];
  return row ? toRunRecord(row) : undefined;
};

const getThread = async (c: PoolClient, threadId: string): Promise<ThreadRecord | undefined> => {
  const row = (await c.query<ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.thread_id = $1`, [threadId]))
    .rows[0];
  return row ? toThreadRecord(row) : undefined;
};

const selectRuns = async (c: PoolClient, where: string, params: unknown[]): Promise<RunRecord[]> =>
  (await c.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs r WHERE ${where}`, params)).rows.map(toRunRecord);

const lastSeq = async (c: PoolClient, runId: string): Promise<number> =>
  Number(
    (await c.query<{ seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM run_events WHERE run_id = $1', [runId]))
      .rows[0]?.seq ?? 0,
  );

const insertEvents = async (
  c: PoolClient,
  events: readonly RunEventRecord[],
  now: Date,
  leaseOwner?: string,
): Promise<number> => {
  const rows = [
    events.map((e) => e.runId),
    events.map((e) => e.seq),
    events.map((e) => e.event),
    events.map((e) => JSON.stringify(e.data ?? null)),
    now,
  ];
  // With an owner, the run rows are share-locked in the statement: a claim waits for the insert, then sees its events.
  // The batch is all or nothing: unless the owner holds every run in it, no row is inserted (one statement, atomic).
  const sql =
    leaseOwner === undefined
      ? `INSERT INTO run_events (run_id, seq, event, data, created_at)
         SELECT run_id, seq, event, data, $5 FROM unnest($1::text[], $2::int[], $3::text[], $4::json[]) AS e(run_id, seq, event, data)`
      : `WITH held AS (SELECT run_id FROM runs WHERE run_id = ANY($1::text[]) AND lease_owner = $6 FOR SHARE)
         INSERT INTO run_events (run_id, seq, event, data, created_at)
         SELECT run_id, seq, event, data, $5 FROM unnest($1::text[], $2::int[], $3::text[], $4::json[]) AS e(run_id, seq, event, data)
         WHERE (SELECT count(*) FROM held) = $7`;
  try {
    const runs = new Set(events.map((e) => e.runId)).size;
    return (await c.query(sql, leaseOwner === undefined ? rows : [...rows, leaseOwner, runs])).rowCount ?? 0;
  } catch (error) {
    const { code, detail } = error as { code?: string; detail?: string };
    if (code === '23505') {
      const taken = /\(run_id, seq\)=\((.*), (\d+)\)/.exec(detail ?? '');
      throw runEventsRefused(
        { kind: 'seq_taken', ...(taken ? { taken: { runId: taken[1] as string, seq: taken[2] as string } } : {}) },
        error,
      );
    }
    if (code === '23503')
      throw runEventsRefused({ kind: 'unknown_run', runId: events.find((e) => e.runId)?.runId ?? '' }, error);
    throw error;
  }
};

/**
 * The run log on Postgres (threads, runs, run events). Every read names the owner in its WHERE clause. Writes that
 * read first lock the thread row, so two servers starting runs on one thread see each other; a run start also locks
 * the thread's running runs, so a claim of an orphan and a start superseding it never both succeed.
 */
export function postgresRunLog(pool: PostgresPool): RunLog {
  return {
    async startRun(run) {
      return pool.transaction('record a run', async (c) => {
        validateRunStart(run);
        const now = new Date();
        await c.query(
          `INSERT INTO threads (thread_id, agent, owner, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT (thread_id) DO NOTHING`,
          [run.threadId, '', run.user, now],
        );
        // The thread row is locked: a concurrent start on this thread waits here and then sees this run.
        const thread = (
          await c.query<{ owner: string; agent: string }>(
            'SELECT owner, agent FROM threads WHERE thread_id = $1 FOR UPDATE',
            [run.threadId],
          )
        ).rows[0] as { owner: string; agent: string };
        const running = await c.query<{ run_id: string; started_at: Date; live: boolean }>(
          `SELECT r.run_id, r.started_at, coalesce(r.lease_expires_at > now(), false) AS live FROM runs r
           WHERE r.thread_id = $1 AND r.status = 'running' ORDER BY r.seq FOR UPDATE`,
          [run.threadId],
        );
        checkRunStart(run, {
          ...thread,
          hasLiveRun: running.rows.some((r) => r.live) || (await hasPending(c, run.threadId)),
        });
        // The thread's orphans (locked above, so no claim can take one now) end as a new run takes their thread.
        for (const orphan of running.rows) {
          const { outcome, events } = supersededOrphan(orphan.run_id, await lastSeq(c, orphan.run_id));
          await c.query(
            `UPDATE runs SET status = $2, error = $3, finished_at = $4, duration_ms = $5, lease_owner = NULL, lease_expires_at = NULL WHERE run_id = $1`,
            [orphan.run_id, outcome.status, outcome.error, now, runDuration(orphan.started_at, now)],
          );
          await insertEvents(c, events, now);
        }
        await c.query('UPDATE threads SET updated_at = $2, agent = $3 WHERE thread_id = $1', [
          run.threadId,
          now,
          run.agent,
        ]);
        await c.query(
          `INSERT INTO runs (run_id, thread_id, agent, user_name, question, status, started_at, lease_owner, lease_expires_at, multitask_strategy)
           VALUES ($1, $2, $3, $4, $5, 'running', $6, $7, ${expiryAfter('$8')}, $9)`,
          [
            run.runId,
            run.threadId,
            run.agent,
            run.user,
            run.question,
            now,
            run.lease.owner,
            run.lease.ttlMs,
            run.multitaskStrategy ?? 'reject',
          ],
        );
        await insertPostgresRunWebhook(c, run);
        await recordPostgresRunAssistant(c, run);
        return (await getRun(c, run.runId)) as RunRecord;
      });
    },

    async finishRun(runId, outcome) {
      return pool.transaction('record a run', async (c) => {
        const finished = new Date();
        const row = requireRun(
          runId,
          (await c.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.run_id = $1 FOR UPDATE`, [runId])).rows[0],
        );
        checkLeaseHeld(runId, outcome.leaseOwner, row.status === 'running' ? row.lease_owner : undefined);
        await c.query('UPDATE runs SET status = $2, error = $3, finished_at = $4, duration_ms = $5 WHERE run_id = $1', [
          runId,
          outcome.status,
          outcome.error ?? null,
          finished,
          runDuration(row.started_at, finished),
        ]);
        await c.query('UPDATE threads SET updated_at = $2 WHERE thread_id = $1', [row.thread_id, finished]);
        if (outcome.endSeq !== undefined)
          await insertEvents(c, [endEvent(runId, outcome.endSeq, outcome.status)], finished);
        return (await getRun(c, runId)) as RunRecord;
      });
    },

    async listRuns(threadId, user) {
      return pool.withClient('list runs', async (c) => {
        const result = await c.query<RunRow>(
          `SELECT ${RUN_COLUMNS} FROM runs r JOIN threads t ON t.thread_id = r.thread_id
           WHERE r.thread_id = $1 AND t.owner = $2 ORDER BY r.started_at, r.seq`,
          [threadId, user],
        );
        return result.rows.map(toRunRecord);
      });
    },

    async listThreads(user) {
      return pool.withClient('list threads', async (c) => {
        const result = await c.query<ThreadSummaryRow>(
          `SELECT ${THREAD_COLUMNS}, l.question AS last_question, l.status AS last_status,
                  (SELECT count(*) FROM runs WHERE thread_id = t.thread_id) AS run_count
           FROM threads t
           LEFT JOIN LATERAL (SELECT question, status FROM runs WHERE thread_id = t.thread_id ORDER BY started_at DESC, seq DESC LIMIT 1) l ON true
           WHERE t.owner = $1 ORDER BY t.updated_at DESC, t.seq DESC`,
          [user],
        );
        return result.rows.map((row) =>
          toThreadSummary(
            toThreadRecord(row),
            { question: row.last_question, status: row.last_status },
            Number(row.run_count),
          ),
        );
      });
    },

    async createThread(thread) {
      return pool.withClient('create a thread', async (c) => {
        validateThreadCreate(thread);
        const inserted = await c.query(
          `INSERT INTO threads (thread_id, agent, owner, metadata, created_at, updated_at) VALUES ($1, $5, $2, $3, $4, $4) ON CONFLICT DO NOTHING`,
          [thread.threadId, thread.owner, JSON.stringify(thread.metadata ?? {}), new Date(), thread.agent ?? ''],
        );
        checkThreadCreated(thread, (inserted.rowCount ?? 0) > 0);
        return (await getThread(c, thread.threadId)) as ThreadRecord;
      });
    },

    async getThread(threadId) {
      return pool.withClient('read a thread', (c) => getThread(c, threadId));
    },

    async setThreadMetadata(threadId, owner, metadata) {
      return pool.withClient("update a thread's metadata", async (c) => {
        const updated = await c.query(
          'UPDATE threads SET metadata = $1, updated_at = $2 WHERE thread_id = $3 AND owner = $4',
          [JSON.stringify(metadata), new Date(), threadId, owner],
        );
        return (updated.rowCount ?? 0) > 0 ? getThread(c, threadId) : undefined;
      });
    },

    async deleteThread(threadId, owner) {
      return pool.withClient(
        'delete a thread',
        async (c) =>
          ((await c.query('DELETE FROM threads WHERE thread_id = $1 AND owner = $2', [threadId, owner])).rowCount ??
            0) > 0,
      );
    },

    async getRun(runId) {
      return pool.withClient('read a run', (c) => getRun(c, runId));
    },

    async requestRunCancel(runId) {
      return pool.withClient("request a run's cancellation", async (c) => {
        const result = await c.query(
          "UPDATE runs SET cancel_requested = true WHERE run_id = $1 AND status = 'running'",
          [runId],
        );
        return (result.rowCount ?? 0) > 0;
      });
    },

    /** One INSERT for the batch: a taken sequence number, an unknown run or a lost lease fails it whole. */
    async appendRunEvents(events, leaseOwner) {
      if (events.length === 0) return;
      await pool.withClient('record run events', async (c) => {
        const inserted = await insertEvents(c, events, new Date(), leaseOwner);
        if (inserted === events.length || leaseOwner === undefined) return;
        // Nothing was inserted: some run of the batch is not held by `leaseOwner`; the error names the first such run.
        const held = await c.query<{ run_id: string }>(
          'SELECT run_id FROM runs WHERE run_id = ANY($1::text[]) AND lease_owner = $2',
          [[...new Set(events.map((e) => e.runId))], leaseOwner],
        );
        const holders = new Set(held.rows.map((row) => row.run_id));
        const lost = events.find((e) => !holders.has(e.runId))?.runId ?? events[0]?.runId ?? '';
        checkLeaseHeld(lost, leaseOwner, null);
      });
    },

    async listRunEvents(runId, afterSeq, limit = DEFAULT_RUN_EVENT_LIMIT) {
      return pool.withClient('read run events', async (c) => {
        const result = await c.query<{ seq: number; event: string; data: unknown }>(
          'SELECT seq, event, data FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
          [runId, afterSeq, limit],
        );
        return result.rows.map((row): RunEventRecord => ({ runId, seq: row.seq, event: row.event, data: row.data }));
      });
    },

    async lastRunEventSeq(runId) {
      return pool.withClient('read run events', (c) => lastSeq(c, runId));
    },

    async renewRunLease(runId, lease) {
      validateLease(lease, { release: true });
      return pool.withClient("renew a run's lease", async (c) => {
        const renewed = await c.query(
          `UPDATE runs SET lease_expires_at = ${expiryAfter('$3')} WHERE run_id = $1 AND status = 'running' AND lease_owner = $2`,
          [runId, lease.owner, lease.ttlMs],
        );
        return (renewed.rowCount ?? 0) > 0;
      });
    },

    async listOrphanedRuns(limit = DEFAULT_ORPHAN_LIMIT) {
      return pool.withClient('list orphaned runs', async (c) => {
        const result = await c.query<RunRow>(
          `SELECT ${RUN_COLUMNS} FROM runs r WHERE ${EXPIRED_LEASE} ORDER BY r.started_at, r.seq LIMIT $1`,
          [limit],
        );
        return result.rows.map(toRunRecord);
      });
    },

    async claimOrphanedRun(runId, lease) {
      validateLease(lease, { release: false });
      return pool.withClient('claim an orphaned run', async (c) => {
        // One statement: a second claimer waits on the row, re-reads it, finds the lease live and matches nothing.
        const claimed = await c.query<RunRow>(
          `UPDATE runs r SET lease_owner = $2, lease_expires_at = ${expiryAfter('$3')}, attempt = r.attempt + 1
           WHERE r.run_id = $1 AND ${EXPIRED_LEASE} RETURNING ${RUN_COLUMNS}`,
          [runId, lease.owner, lease.ttlMs],
        );
        const row = claimed.rows[0];
        return row ? toRunRecord(row) : undefined;
      });
    },
    ...postgresRunQueueLog(pool, { getRun, insertEvents, selectRuns, hasPending }),
  };
}
