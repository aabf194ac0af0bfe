import type { PoolClient } from 'pg';
import type { RunEventRecord, RunQueueLog, RunRecord } from '../ports/run-log.ts';
import { DEFAULT_STARTABLE_LIMIT, cancelledPending, validateRunEnqueue } from '../run-queue-rules.ts';
import { checkRunStart, runDuration, validateLease } from '../run-rules.ts';
import type { PostgresPool } from './pool.ts';
import { recordPostgresRunAssistant } from './run-assistant.ts';
import { insertPostgresRunWebhook } from './run-webhook-log.ts';

const expiryAfter = (param: string) => `now() + ${param} * interval '1 millisecond'`;
/** A pending run whose turn it is: no run of its thread running (an orphan goes to recovery first), none queued before it. */
const STARTABLE = `r.status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM runs o WHERE o.thread_id = r.thread_id AND o.status = 'running')
  AND NOT EXISTS (SELECT 1 FROM runs e WHERE e.thread_id = r.thread_id AND e.status = 'pending' AND e.seq < r.seq)`;

/** What the queue reads and writes through the run log's own statements. */
export interface PostgresRunLogParts {
  getRun(c: PoolClient, runId: string): Promise<RunRecord | undefined>;
  insertEvents(c: PoolClient, events: readonly RunEventRecord[], now: Date): Promise<number>;
  /** The runs matching a WHERE clause over `runs r` (with its ORDER BY and LIMIT). */
  selectRuns(c: PoolClient, where: string, params: unknown[]): Promise<RunRecord[]>;
  hasPending(c: PoolClient, threadId: string): Promise<boolean>;
}

/**
 * The run queue on PostgreSQL (double-texting): pending runs in the `runs` table with their request
 * (`queued_request`). Queueing and claiming lock the thread row, as a run start does, so a start, a claim and an
 * enqueue on one thread see each other; of several servers claiming one run, one gets it.
 */
export function postgresRunQueueLog(pool: PostgresPool, parts: PostgresRunLogParts): RunQueueLog {
  const { getRun, insertEvents, selectRuns, hasPending } = parts;
  return {
    async enqueueRun(run) {
      return pool.transaction('queue a run', async (c) => {
        validateRunEnqueue(run);
        const now = new Date();
        // The thread row is locked: a start, a claim or another enqueue on this thread waits here, then sees this run.
        const thread = (
          await c.query<{ owner: string; agent: string }>(
            'SELECT owner, agent FROM threads WHERE thread_id = $1 FOR UPDATE',
            [run.threadId],
          )
        ).rows[0];
        if (!thread) return undefined;
        const live = await c.query(
          "SELECT 1 FROM runs WHERE thread_id = $1 AND status = 'running' AND lease_expires_at > now() LIMIT 1",
          [run.threadId],
        );
        if (live.rows.length === 0 && !(await hasPending(c, run.threadId))) return undefined;
        checkRunStart(run, { ...thread, hasLiveRun: false });
        await c.query(
          `INSERT INTO runs (run_id, thread_id, agent, user_name, question, status, started_at, multitask_strategy, queued_request)
           VALUES ($1, $2, $3, $4, $5, 'pending', $6, 'enqueue', $7)`,
          [run.runId, run.threadId, run.agent, run.user, run.question, now, JSON.stringify(run.request)],
        );
        await recordPostgresRunAssistant(c, run);
        await insertPostgresRunWebhook(c, run);
        await c.query('UPDATE threads SET updated_at = $2 WHERE thread_id = $1', [run.threadId, now]);
        return getRun(c, run.runId);
      });
    },

    async listStartableRuns(limit = DEFAULT_STARTABLE_LIMIT) {
      return pool.withClient('list queued runs', async (c) => {
        return selectRuns(c, `${STARTABLE} ORDER BY r.seq LIMIT $1`, [limit]);
      });
    },

    async claimPendingRun(runId, lease) {
      validateLease(lease, { release: false });
      return pool.transaction('start a queued run', async (c) => {
        const threadId = (await c.query<{ thread_id: string }>('SELECT thread_id FROM runs WHERE run_id = $1', [runId]))
          .rows[0]?.thread_id;
        if (threadId === undefined) return undefined;
        // Locked as a start locks it: a start and a claim on one thread never both see it free.
        await c.query('SELECT 1 FROM threads WHERE thread_id = $1 FOR UPDATE', [threadId]);
        const claimed = await c.query<{ queued_request: unknown }>(
          `UPDATE runs r SET status = 'running', lease_owner = $2, lease_expires_at = ${expiryAfter('$3')}
           WHERE r.run_id = $1 AND ${STARTABLE} RETURNING r.queued_request`,
          [runId, lease.owner, lease.ttlMs],
        );
        const row = claimed.rows[0];
        if (!row) return undefined;
        await c.query('UPDATE threads SET updated_at = now() WHERE thread_id = $1', [threadId]);
        return { run: (await getRun(c, runId)) as RunRecord, request: row.queued_request };
      });
    },

    async cancelPendingRun(runId) {
      return pool.transaction('cancel a queued run', async (c) => {
        const row = (
          await c.query<{ status: string; started_at: Date }>(
            'SELECT status, started_at FROM runs WHERE run_id = $1 FOR UPDATE',
            [runId],
          )
        ).rows[0];
        if (row?.status !== 'pending') return undefined;
        const finished = new Date();
        const { status, error, events } = cancelledPending(runId);
        await c.query('UPDATE runs SET status = $2, error = $3, finished_at = $4, duration_ms = $5 WHERE run_id = $1', [
          runId,
          status,
          error,
          finished,
          runDuration(row.started_at, finished),
        ]);
        await insertEvents(c, events, finished);
        return getRun(c, runId);
      });
    },

    async deleteRun(runId) {
      return pool.withClient('delete a run', async (c) => {
        // Its events go with it (ON DELETE CASCADE).
        const deleted = await c.query("DELETE FROM runs WHERE run_id = $1 AND status <> 'running'", [runId]);
        return (deleted.rowCount ?? 0) > 0;
      });
    },
  };
}
