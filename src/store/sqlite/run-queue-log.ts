import type { RunEventRecord, RunQueueLog, RunRecord } from '../ports/run-log.ts';
import { DEFAULT_STARTABLE_LIMIT, cancelledPending, validateRunEnqueue } from '../run-queue-rules.ts';
import { checkRunStart, leaseExpiry, runDuration, validateLease } from '../run-rules.ts';
import type { SqliteConnection } from './connection.ts';
import { recordSqliteRunAssistant } from './run-assistant.ts';
import { insertSqliteRunWebhook } from './run-webhook-log.ts';

/** A pending run whose turn it is: no run of its thread running (an orphan goes to recovery first), none queued before it. */
const STARTABLE = `r.status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM runs o WHERE o.thread_id = r.thread_id AND o.status = 'running')
  AND NOT EXISTS (SELECT 1 FROM runs e WHERE e.thread_id = r.thread_id AND e.status = 'pending' AND e.rowid < r.rowid)`;

/** What the queue reads and writes through the run log's own statements. */
export interface SqliteRunLogParts {
  getRun(runId: string): RunRecord | undefined;
  insertEvents(events: readonly RunEventRecord[], now: string): void;
  /** The runs matching a WHERE clause over `runs r` (with its ORDER BY and LIMIT). */
  selectRuns(where: string, ...params: unknown[]): RunRecord[];
  /** A run of the thread is running under a live lease, or queued. */
  isBusy(threadId: string, now: Date): boolean;
}

/**
 * The run queue on SQLite (double-texting): pending runs in the `runs` table with their request (`queued_request`),
 * claimed first in, first out per thread in an IMMEDIATE transaction, so two processes on one file claim a run once.
 */
export function sqliteRunQueueLog(conn: SqliteConnection, parts: SqliteRunLogParts): RunQueueLog {
  const stmt = (sql: string) => conn.stmt(sql);
  const { getRun, insertEvents, selectRuns, isBusy } = parts;
  return {
    async enqueueRun(run) {
      conn.assertWritable();
      return conn.guard('queue a run', () => {
        validateRunEnqueue(run);
        const now = new Date();
        return conn.immediate(() => {
          const thread = stmt('SELECT owner, agent FROM threads WHERE thread_id = ?').get(run.threadId) as
            | { owner: string; agent: string }
            | undefined;
          if (!thread) return undefined;
          const busy = isBusy(run.threadId, now);
          if (!busy) return undefined;
          checkRunStart(run, { ...thread, hasLiveRun: false });
          stmt(
            `INSERT INTO runs (run_id, thread_id, agent, user, question, status, started_at, multitask_strategy, queued_request)
             VALUES (?, ?, ?, ?, ?, 'pending', ?, 'enqueue', ?)`,
          ).run(
            run.runId,
            run.threadId,
            run.agent,
            run.user,
            run.question,
            now.toISOString(),
            JSON.stringify(run.request),
          );
          recordSqliteRunAssistant(conn, run);
          insertSqliteRunWebhook(conn, run, now.toISOString());
          stmt('UPDATE threads SET updated_at = ? WHERE thread_id = ?').run(now.toISOString(), run.threadId);
          return getRun(run.runId);
        });
      });
    },

    async listStartableRuns(limit = DEFAULT_STARTABLE_LIMIT) {
      conn.assertOpen();
      return conn.guard('list queued runs', () => selectRuns(`${STARTABLE} ORDER BY r.rowid LIMIT ?`, limit));
    },

    async claimPendingRun(runId, lease) {
      conn.assertWritable();
      validateLease(lease, { release: false });
      return conn.guard('start a queued run', () =>
        conn.immediate(() => {
          const now = new Date();
          const claimed = stmt(
            `UPDATE runs AS r SET status = 'running', lease_owner = ?, lease_expires_at = ? WHERE r.run_id = ? AND ${STARTABLE}`,
          ).run(lease.owner, leaseExpiry(now, lease).toISOString(), runId);
          if (claimed.changes === 0) return undefined;
          const row = stmt('SELECT queued_request FROM runs WHERE run_id = ?').get(runId) as {
            queued_request: string | null;
          };
          stmt('UPDATE threads SET updated_at = ? WHERE thread_id = (SELECT thread_id FROM runs WHERE run_id = ?)').run(
            now.toISOString(),
            runId,
          );
          return {
            run: getRun(runId) as RunRecord,
            request: row.queued_request === null ? null : (JSON.parse(row.queued_request) as unknown),
          };
        }),
      );
    },

    async cancelPendingRun(runId) {
      conn.assertWritable();
      return conn.guard('cancel a queued run', () =>
        conn.immediate(() => {
          const run = getRun(runId);
          if (run?.status !== 'pending') return undefined;
          const finished = new Date();
          const { status, error, events } = cancelledPending(runId);
          stmt('UPDATE runs SET status = ?, error = ?, finished_at = ?, duration_ms = ? WHERE run_id = ?').run(
            status,
            error,
            finished.toISOString(),
            runDuration(new Date(run.startedAt), finished),
            runId,
          );
          insertEvents(events, finished.toISOString());
          return getRun(runId);
        }),
      );
    },

    async deleteRun(runId) {
      conn.assertWritable();
      return conn.guard('delete a run', () =>
        conn.immediate(() => {
          const deleted = stmt("DELETE FROM runs WHERE run_id = ? AND status <> 'running'").run(runId).changes > 0;
          if (deleted) stmt('DELETE FROM run_events WHERE run_id = ?').run(runId);
          return deleted;
        }),
      );
    },
  };
}
