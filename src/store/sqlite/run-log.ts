import type Database from 'better-sqlite3';
import { EvidentError, NotFoundError, ThreadForbiddenError, ValidationError } from '../../errors/index.ts';
import { RUN_STALE_AFTER_MS, type RunEventRecord, type RunRecord, type RunRecordStatus, type RunStart, type ThreadRecord, type ThreadSummary } from '../store.ts';
import { threadBusyError } from '../thread-busy-error.ts';

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

// A thread created before its first run has agent '' (the column predates unbound threads and is NOT NULL).
const toThreadRecord = (row: ThreadRow): ThreadRecord => ({
  threadId: row.thread_id,
  agent: row.agent || null,
  owner: row.owner,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const RUN_COLUMNS = 'r.run_id, r.thread_id, r.agent, r.user, r.question, r.status, r.error, r.started_at, r.finished_at, r.duration_ms, r.cancel_requested';

const toRunRecord = (row: RunRow): RunRecord => ({
  runId: row.run_id,
  threadId: row.thread_id,
  agent: row.agent,
  user: row.user,
  question: row.question,
  status: row.status,
  ...(row.error === null ? {} : { error: row.error }),
  startedAt: row.started_at,
  ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
  ...(row.duration_ms === null ? {} : { durationMs: row.duration_ms }),
  ...(row.cancel_requested === 1 ? { cancelRequested: true as const } : {}),
});

/**
 * The SQLite side of the run log (tables `threads` and `runs`, migration 004). Every read names the owner in its
 * WHERE clause, so another user's threads are never read, not read and then dropped.
 */
export class SqliteRunLog {
  constructor(private readonly db: Database.Database) {}

  startRun(run: RunStart): RunRecord {
    for (const [field, value] of Object.entries(run)) {
      if (!value) throw new ValidationError(`A run needs a non-empty ${field}.`);
    }
    const now = new Date().toISOString();
    return this.db
      .transaction(() => {
        const thread = this.db.prepare('SELECT owner, agent FROM threads WHERE thread_id = ?').get(run.threadId) as
          | { owner: string; agent: string }
          | undefined;
        if (thread && thread.owner !== run.user) throw new ThreadForbiddenError(run.threadId, run.user);
        if (thread?.agent && thread.agent !== run.agent) {
          // Each agent checkpoints its own state shape: one thread cannot hold two.
          throw new EvidentError('thread_agent_mismatch', `Thread ${run.threadId} belongs to the ${thread.agent} agent, not ${run.agent}.`, {
            category: 'user',
            hint: `Start a new thread for ${run.agent}, or ask ${thread.agent} on this one.`,
          });
        }
        if (thread && this.hasLiveRun(run.threadId, new Date(Date.now() - RUN_STALE_AFTER_MS).toISOString())) throw threadBusyError(run.threadId);
        if (thread) this.db.prepare('UPDATE threads SET updated_at = ?, agent = ? WHERE thread_id = ?').run(now, run.agent, run.threadId);
        else {
          this.db
            .prepare('INSERT INTO threads (thread_id, agent, owner, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
            .run(run.threadId, run.agent, run.user, now, now);
        }
        this.db
          .prepare(
            `INSERT INTO runs (run_id, thread_id, agent, user, question, status, started_at)
             VALUES (@runId, @threadId, @agent, @user, @question, 'running', @now)`,
          )
          .run({ ...run, now });
        return this.get(run.runId) as RunRecord;
      })
      .immediate();
  }

  finishRun(runId: string, outcome: { status: RunRecordStatus; error?: string }): RunRecord {
    const finished = new Date();
    return this.db
      .transaction(() => {
        const run = this.get(runId);
        if (!run) throw new NotFoundError('run', runId);
        const durationMs = Math.max(0, finished.getTime() - Date.parse(run.startedAt));
        this.db
          .prepare('UPDATE runs SET status = ?, error = ?, finished_at = ?, duration_ms = ? WHERE run_id = ?')
          .run(outcome.status, outcome.error ?? null, finished.toISOString(), durationMs, runId);
        this.db.prepare('UPDATE threads SET updated_at = ? WHERE thread_id = ?').run(finished.toISOString(), run.threadId);
        return this.get(runId) as RunRecord;
      })
      .immediate();
  }

  listRuns(threadId: string, user: string): RunRecord[] {
    const rows = this.db
      .prepare(
        `SELECT ${RUN_COLUMNS} FROM runs r JOIN threads t ON t.thread_id = r.thread_id
         WHERE r.thread_id = ? AND t.owner = ? ORDER BY r.started_at, r.rowid`,
      )
      .all(threadId, user) as RunRow[];
    return rows.map(toRunRecord);
  }

  listThreads(user: string): ThreadSummary[] {
    const rows = this.db
      .prepare(
        `SELECT ${THREAD_COLUMNS}, l.question AS last_question, l.status AS last_status,
                (SELECT count(*) FROM runs WHERE thread_id = t.thread_id) AS run_count
         FROM threads t
         LEFT JOIN runs l ON l.run_id = (SELECT run_id FROM runs WHERE thread_id = t.thread_id ORDER BY started_at DESC, rowid DESC LIMIT 1)
         WHERE t.owner = ? ORDER BY t.updated_at DESC, t.rowid DESC`,
      )
      .all(user) as ThreadSummaryRow[];
    return rows.map((row) => {
      const { owner: _owner, ...thread } = toThreadRecord(row);
      return {
        ...thread,
        lastQuestion: row.last_question ?? '',
        ...(row.last_status ? { lastStatus: row.last_status } : {}),
        runCount: row.run_count,
      };
    });
  }

  createThread(thread: { threadId: string; owner: string; metadata?: Record<string, unknown> }): ThreadRecord {
    if (!thread.threadId || !thread.owner) throw new ValidationError('A thread needs a non-empty id and owner.');
    const now = new Date().toISOString();
    const metadata = JSON.stringify(thread.metadata ?? {});
    const inserted = this.db
      .prepare(`INSERT INTO threads (thread_id, agent, owner, metadata, created_at, updated_at) VALUES (?, '', ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
      .run(thread.threadId, thread.owner, metadata, now, now);
    if (inserted.changes === 0) {
      // Same message whoever owns it: an id says nothing about another user's thread.
      throw new EvidentError('thread_exists', `Thread ${thread.threadId} already exists.`, {
        category: 'user',
        hint: 'Omit thread_id to get a new one, or use if_exists: "do_nothing".',
      });
    }
    return this.getThread(thread.threadId) as ThreadRecord;
  }

  getThread(threadId: string): ThreadRecord | undefined {
    const row = this.db.prepare(`SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.thread_id = ?`).get(threadId) as ThreadRow | undefined;
    return row ? toThreadRecord(row) : undefined;
  }

  deleteThread(threadId: string, owner: string): boolean {
    return this.db.prepare('DELETE FROM threads WHERE thread_id = ? AND owner = ?').run(threadId, owner).changes > 0;
  }

  appendRunEvents(events: readonly RunEventRecord[]): void {
    const insert = this.db.prepare('INSERT INTO run_events (run_id, seq, event, data, created_at) VALUES (?, ?, ?, ?, ?)');
    const now = new Date().toISOString();
    this.db
      .transaction(() => {
        for (const event of events) {
          try {
            insert.run(event.runId, event.seq, event.event, JSON.stringify(event.data ?? null), now);
          } catch (error) {
            if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
              throw new EvidentError('run_event_conflict', `Run ${event.runId} already has an event ${event.seq}.`, { category: 'system', cause: error });
            }
            if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new NotFoundError('run', event.runId);
            throw error;
          }
        }
      })
      .immediate();
  }

  listRunEvents(runId: string, afterSeq: number, limit: number): RunEventRecord[] {
    const rows = this.db
      .prepare('SELECT seq, event, data FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(runId, afterSeq, limit) as { seq: number; event: string; data: string }[];
    return rows.map((row) => ({ runId, seq: row.seq, event: row.event, data: JSON.parse(row.data) as unknown }));
  }

  /** Whether a run of the thread is `running` and started or stored an event after `since` (ISO time). */
  private hasLiveRun(threadId: string, since: string): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM runs r WHERE r.thread_id = ? AND r.status = 'running'
           AND max(r.started_at, coalesce((SELECT max(e.created_at) FROM run_events e WHERE e.run_id = r.run_id), '')) > ?`,
        )
        .get(threadId, since) !== undefined
    );
  }

  requestCancel(runId: string): boolean {
    return this.db.prepare("UPDATE runs SET cancel_requested = 1 WHERE run_id = ? AND status = 'running'").run(runId).changes > 0;
  }

  get(runId: string): RunRecord | undefined {
    const row = this.db.prepare(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.run_id = ?`).get(runId) as RunRow | undefined;
    return row ? toRunRecord(row) : undefined;
  }
}
