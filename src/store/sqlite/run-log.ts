import type Database from 'better-sqlite3';
import { NotFoundError, ThreadForbiddenError, ValidationError } from '../../errors/index.ts';
import type { RunRecord, RunRecordStatus, RunStart, ThreadSummary } from '../store.ts';

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
}

interface ThreadRow {
  thread_id: string;
  agent: string;
  created_at: string;
  updated_at: string;
  last_question: string;
  run_count: number;
}

const RUN_COLUMNS = 'r.run_id, r.thread_id, r.agent, r.user, r.question, r.status, r.error, r.started_at, r.finished_at, r.duration_ms';

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
        const thread = this.db.prepare('SELECT owner FROM threads WHERE thread_id = ?').get(run.threadId) as { owner: string } | undefined;
        if (thread && thread.owner !== run.user) throw new ThreadForbiddenError(run.threadId, run.user);
        if (thread) this.db.prepare('UPDATE threads SET updated_at = ? WHERE thread_id = ?').run(now, run.threadId);
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
        `SELECT t.thread_id, t.agent, t.created_at, t.updated_at,
                (SELECT question FROM runs WHERE thread_id = t.thread_id ORDER BY started_at DESC, rowid DESC LIMIT 1) AS last_question,
                (SELECT count(*) FROM runs WHERE thread_id = t.thread_id) AS run_count
         FROM threads t WHERE t.owner = ? ORDER BY t.updated_at DESC, t.rowid DESC`,
      )
      .all(user) as ThreadRow[];
    return rows.map((row) => ({
      threadId: row.thread_id,
      agent: row.agent,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      lastQuestion: row.last_question,
      runCount: row.run_count,
    }));
  }

  private get(runId: string): RunRecord | undefined {
    const row = this.db.prepare(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.run_id = ?`).get(runId) as RunRow | undefined;
    return row ? toRunRecord(row) : undefined;
  }
}
