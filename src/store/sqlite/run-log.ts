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
  leaseExpiry,
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
import type { SqliteConnection } from './connection.ts';
import { sqliteRunQueueLog } from './run-queue-log.ts';
import { runAssistantOf } from '../run-assistant.ts';
import { recordSqliteRunAssistant } from './run-assistant.ts';
import { insertSqliteRunWebhook } from './run-webhook-log.ts';

interface RunRow {
  run_id: string;
  thread_id: string;
  agent: string;
  user: string;
  question: string;
  status: RunRecordStatus;
  error: string | null;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  cancel_requested: number;
  attempt: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  assistant_id: string | null;
  assistant_version: number | null;
  multitask_strategy: MultitaskStrategy;
}

interface ThreadRow {
  thread_id: string;
  agent: string;
  owner: string;
  metadata: string;
  created_at: string;
  updated_at: string;
}

interface ThreadSummaryRow extends ThreadRow {
  last_question: string | null;
  last_status: RunRecordStatus | null;
  run_count: number;
}

const THREAD_COLUMNS = 't.thread_id, t.agent, t.owner, t.metadata, t.created_at, t.updated_at';

const toThreadRecord = (row: ThreadRow): ThreadRecord => ({
  threadId: row.thread_id,
  agent: threadAgent(row.agent),
  owner: row.owner,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const RUN_COLUMNS =
  'r.run_id, r.thread_id, r.agent, r.user, r.question, r.status, r.error, r.started_at, r.finished_at, r.duration_ms, r.cancel_requested, r.attempt, r.lease_owner, r.lease_expires_at, r.assistant_id, r.assistant_version, r.multitask_strategy';

const toRunRecord = (row: RunRow): RunRecord => ({
  runId: row.run_id,
  threadId: row.thread_id,
  agent: row.agent,
  user: row.user,
  question: row.question,
  status: row.status,
  multitaskStrategy: row.multitask_strategy,
  attempt: row.attempt,
  ...(row.lease_owner === null || row.lease_expires_at === null
    ? {}
    : { lease: { owner: row.lease_owner, expiresAt: row.lease_expires_at } }),
  ...(row.error === null ? {} : { error: row.error }),
  startedAt: row.started_at,
  ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
  ...(row.duration_ms === null ? {} : { durationMs: row.duration_ms }),
  ...(row.cancel_requested === 1 ? { cancelRequested: true as const } : {}),
  ...runAssistantOf(row),
});

/** A running run's lease is live while its expiry is after now; none (a run from before leases) counts as expired. */
const LIVE_LEASE = `r.status = 'running' AND r.lease_expires_at > ?`;
const EXPIRED_LEASE = `r.status = 'running' AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= ?)`;
/** A thread is busy while a run of it is running under a live lease or queued. */
const BUSY_RUN = `(${LIVE_LEASE} OR r.status = 'pending')`;
/**
 * The run log on SQLite (tables `threads`, `runs`, `run_events`). Every read names the owner in its WHERE clause, so
 * another user's threads are never read, not read and then dropped. Writes that read first run in an IMMEDIATE
 * transaction, so two processes on one file see each other's runs. Lease times are ISO strings of one clock (the
 * processes sharing a file share its machine), compared as text.
 */
export function sqliteRunLog(conn: SqliteConnection): RunLog {
  const stmt = (sql: string) => conn.stmt(sql);
  const getRun = (runId: string): RunRecord | undefined => {
    const row = stmt(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.run_id = ?`).get(runId) as RunRow | undefined;
    return row ? toRunRecord(row) : undefined;
  };
  const getThread = (threadId: string): ThreadRecord | undefined => {
    const row = stmt(`SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.thread_id = ?`).get(threadId) as
      | ThreadRow
      | undefined;
    return row ? toThreadRecord(row) : undefined;
  };
  const selectRuns = (where: string, ...params: unknown[]): RunRecord[] =>
    (stmt(`SELECT ${RUN_COLUMNS} FROM runs r WHERE ${where}`).all(...params) as RunRow[]).map(toRunRecord);
  const isBusy = (threadId: string, now: Date): boolean =>
    stmt(`SELECT 1 FROM runs r WHERE r.thread_id = ? AND ${BUSY_RUN}`).get(threadId, now.toISOString()) !== undefined;
  const lastSeq = (runId: string): number =>
    (stmt('SELECT coalesce(max(seq), 0) AS seq FROM run_events WHERE run_id = ?').get(runId) as { seq: number }).seq;
  const insertEvents = (events: readonly RunEventRecord[], now: string) => {
    const insert = stmt('INSERT INTO run_events (run_id, seq, event, data, created_at) VALUES (?, ?, ?, ?, ?)');
    for (const event of events) {
      try {
        insert.run(event.runId, event.seq, event.event, JSON.stringify(event.data ?? null), now);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw runEventsRefused({ kind: 'seq_taken', taken: event }, error);
        if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
          throw runEventsRefused({ kind: 'unknown_run', runId: event.runId }, error);
        throw error;
      }
    }
  };
  /** Ends the thread's orphaned runs as a new run takes the thread (`supersededOrphan`), in the caller's transaction. */
  const endOrphans = (threadId: string, now: Date) => {
    const orphans = stmt(`SELECT r.run_id, r.started_at FROM runs r WHERE r.thread_id = ? AND ${EXPIRED_LEASE}`).all(
      threadId,
      now.toISOString(),
    ) as {
      run_id: string;
      started_at: string;
    }[];
    for (const orphan of orphans) {
      const { outcome, events } = supersededOrphan(orphan.run_id, lastSeq(orphan.run_id));
      stmt(
        'UPDATE runs SET status = ?, error = ?, finished_at = ?, duration_ms = ?, lease_owner = NULL, lease_expires_at = NULL WHERE run_id = ?',
      ).run(
        outcome.status,
        outcome.error,
        now.toISOString(),
        runDuration(new Date(orphan.started_at), now),
        orphan.run_id,
      );
      insertEvents(events, now.toISOString());
    }
  };

  return {
    async startRun(run) {
      conn.assertWritable();
      return conn.guard('record a run', () => {
        validateRunStart(run);
        const now = new Date();
        return conn.immediate(() => {
          const thread = stmt('SELECT owner, agent FROM threads WHERE thread_id = ?').get(run.threadId) as
            | { owner: string; agent: string }
            | undefined;
          if (thread) {
            const live =
              stmt(`SELECT 1 FROM runs r WHERE r.thread_id = ? AND ${BUSY_RUN}`).get(
                run.threadId,
                now.toISOString(),
              ) !== undefined;
            checkRunStart(run, { ...thread, hasLiveRun: live });
            endOrphans(run.threadId, now);
            stmt('UPDATE threads SET updated_at = ?, agent = ? WHERE thread_id = ?').run(
              now.toISOString(),
              run.agent,
              run.threadId,
            );
          } else {
            stmt('INSERT INTO threads (thread_id, agent, owner, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(
              run.threadId,
              run.agent,
              run.user,
              now.toISOString(),
              now.toISOString(),
            );
          }
          stmt(
            `INSERT INTO runs (run_id, thread_id, agent, user, question, status, started_at, lease_owner, lease_expires_at, multitask_strategy)
             VALUES (@runId, @threadId, @agent, @user, @question, 'running', @now, @owner, @expires, @strategy)`,
          ).run({
            runId: run.runId,
            threadId: run.threadId,
            agent: run.agent,
            user: run.user,
            question: run.question,
            now: now.toISOString(),
            owner: run.lease.owner,
            expires: leaseExpiry(now, run.lease).toISOString(),
            strategy: run.multitaskStrategy ?? 'reject',
          });
          insertSqliteRunWebhook(conn, run, now.toISOString());
          recordSqliteRunAssistant(conn, run);
          return getRun(run.runId) as RunRecord;
        });
      });
    },

    async finishRun(runId, outcome) {
      conn.assertWritable();
      const finished = new Date();
      return conn.guard('record a run', () =>
        conn.immediate(() => {
          const run = requireRun(runId, getRun(runId));
          checkLeaseHeld(runId, outcome.leaseOwner, run.status === 'running' ? run.lease?.owner : undefined);
          const durationMs = runDuration(new Date(run.startedAt), finished);
          stmt('UPDATE runs SET status = ?, error = ?, finished_at = ?, duration_ms = ? WHERE run_id = ?').run(
            outcome.status,
            outcome.error ?? null,
            finished.toISOString(),
            durationMs,
            runId,
          );
          stmt('UPDATE threads SET updated_at = ? WHERE thread_id = ?').run(finished.toISOString(), run.threadId);
          if (outcome.endSeq !== undefined)
            insertEvents([endEvent(runId, outcome.endSeq, outcome.status)], finished.toISOString());
          return getRun(runId) as RunRecord;
        }),
      );
    },

    async listRuns(threadId, user) {
      conn.assertOpen();
      return conn.guard('list runs', () => {
        const rows = stmt(
          `SELECT ${RUN_COLUMNS} FROM runs r JOIN threads t ON t.thread_id = r.thread_id
           WHERE r.thread_id = ? AND t.owner = ? ORDER BY r.started_at, r.rowid`,
        ).all(threadId, user) as RunRow[];
        return rows.map(toRunRecord);
      });
    },

    async listThreads(user) {
      conn.assertOpen();
      return conn.guard('list threads', () => {
        const rows = stmt(
          `SELECT ${THREAD_COLUMNS}, l.question AS last_question, l.status AS last_status,
                  (SELECT count(*) FROM runs WHERE thread_id = t.thread_id) AS run_count
           FROM threads t
           LEFT JOIN runs l ON l.run_id = (SELECT run_id FROM runs WHERE thread_id = t.thread_id ORDER BY started_at DESC, rowid DESC LIMIT 1)
           WHERE t.owner = ? ORDER BY t.updated_at DESC, t.rowid DESC`,
        ).all(user) as ThreadSummaryRow[];
        return rows.map((row) =>
          toThreadSummary(toThreadRecord(row), { question: row.last_question, status: row.last_status }, row.run_count),
        );
      });
    },

    async createThread(thread) {
      conn.assertWritable();
      return conn.guard('create a thread', () => {
        validateThreadCreate(thread);
        const now = new Date().toISOString();
        const inserted = stmt(
          `INSERT INTO threads (thread_id, agent, owner, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        ).run(thread.threadId, thread.agent ?? '', thread.owner, JSON.stringify(thread.metadata ?? {}), now, now);
        checkThreadCreated(thread, inserted.changes > 0);
        return getThread(thread.threadId) as ThreadRecord;
      });
    },

    async getThread(threadId) {
      conn.assertOpen();
      return conn.guard('read a thread', () => getThread(threadId));
    },

    async setThreadMetadata(threadId, owner, metadata) {
      conn.assertWritable();
      return conn.guard("update a thread's metadata", () => {
        const updated = stmt('UPDATE threads SET metadata = ?, updated_at = ? WHERE thread_id = ? AND owner = ?').run(
          JSON.stringify(metadata),
          new Date().toISOString(),
          threadId,
          owner,
        );
        return updated.changes > 0 ? getThread(threadId) : undefined;
      });
    },

    async deleteThread(threadId, owner) {
      conn.assertWritable();
      return conn.guard(
        'delete a thread',
        () => stmt('DELETE FROM threads WHERE thread_id = ? AND owner = ?').run(threadId, owner).changes > 0,
      );
    },

    async getRun(runId) {
      conn.assertOpen();
      return conn.guard('read a run', () => getRun(runId));
    },

    async requestRunCancel(runId) {
      conn.assertWritable();
      return conn.guard(
        "request a run's cancellation",
        () =>
          stmt("UPDATE runs SET cancel_requested = 1 WHERE run_id = ? AND status = 'running'").run(runId).changes > 0,
      );
    },

    async appendRunEvents(events, leaseOwner) {
      conn.assertWritable();
      if (events.length === 0) return;
      conn.guard('record run events', () => {
        conn.immediate(() => {
          if (leaseOwner !== undefined) {
            for (const runId of new Set(events.map((event) => event.runId))) {
              const holder = stmt('SELECT lease_owner FROM runs WHERE run_id = ?').get(runId) as
                | { lease_owner: string | null }
                | undefined;
              checkLeaseHeld(runId, leaseOwner, holder?.lease_owner);
            }
          }
          insertEvents(events, new Date().toISOString());
        });
      });
    },

    async listRunEvents(runId, afterSeq, limit = DEFAULT_RUN_EVENT_LIMIT) {
      conn.assertOpen();
      return conn.guard('read run events', () => {
        const rows = stmt(
          'SELECT seq, event, data FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
        ).all(runId, afterSeq, limit) as {
          seq: number;
          event: string;
          data: string;
        }[];
        return rows.map(
          (row): RunEventRecord => ({ runId, seq: row.seq, event: row.event, data: JSON.parse(row.data) as unknown }),
        );
      });
    },

    async lastRunEventSeq(runId) {
      conn.assertOpen();
      return conn.guard('read run events', () => lastSeq(runId));
    },

    async renewRunLease(runId, lease) {
      conn.assertWritable();
      validateLease(lease, { release: true });
      return conn.guard("renew a run's lease", () => {
        const expires = leaseExpiry(new Date(), lease).toISOString();
        return (
          stmt("UPDATE runs SET lease_expires_at = ? WHERE run_id = ? AND status = 'running' AND lease_owner = ?").run(
            expires,
            runId,
            lease.owner,
          ).changes > 0
        );
      });
    },

    async listOrphanedRuns(limit = DEFAULT_ORPHAN_LIMIT) {
      conn.assertOpen();
      return conn.guard('list orphaned runs', () => {
        const rows = stmt(
          `SELECT ${RUN_COLUMNS} FROM runs r WHERE ${EXPIRED_LEASE} ORDER BY r.started_at, r.rowid LIMIT ?`,
        ).all(new Date().toISOString(), limit) as RunRow[];
        return rows.map(toRunRecord);
      });
    },

    async claimOrphanedRun(runId, lease) {
      conn.assertWritable();
      validateLease(lease, { release: false });
      return conn.guard('claim an orphaned run', () => {
        const now = new Date();
        // One statement: whichever process updates the row first wins; the others match no row.
        const claimed = stmt(
          `UPDATE runs AS r SET lease_owner = ?, lease_expires_at = ?, attempt = attempt + 1 WHERE r.run_id = ? AND ${EXPIRED_LEASE}`,
        ).run(lease.owner, leaseExpiry(now, lease).toISOString(), runId, now.toISOString());
        return claimed.changes > 0 ? getRun(runId) : undefined;
      });
    },
    ...sqliteRunQueueLog(conn, { getRun, insertEvents, selectRuns, isBusy }),
  };
}
