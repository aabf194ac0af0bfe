import type { PoolClient } from 'pg';
import { EvidentError, NotFoundError, ThreadForbiddenError, ValidationError } from '../../errors/index.ts';
import { RUN_STALE_AFTER_MS, type RunEventRecord, type RunRecord, type RunRecordStatus, type RunStart, type ThreadRecord, type ThreadSummary } from '../store.ts';
import { threadBusyError } from '../thread-busy-error.ts';

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
const RUN_COLUMNS = 'r.run_id, r.thread_id, r.agent, r.user_name, r.question, r.status, r.error, r.started_at, r.finished_at, r.duration_ms, r.cancel_requested';

// A thread created before its first run has agent '' (NOT NULL, as on SQLite).
const toThreadRecord = (row: ThreadRow): ThreadRecord => ({
  threadId: row.thread_id,
  agent: row.agent || null,
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
  ...(row.error === null ? {} : { error: row.error }),
  startedAt: row.started_at.toISOString(),
  ...(row.finished_at === null ? {} : { finishedAt: row.finished_at.toISOString() }),
  ...(row.duration_ms === null ? {} : { durationMs: row.duration_ms }),
  ...(row.cancel_requested ? { cancelRequested: true as const } : {}),
});

/**
 * The run log on Postgres (threads, runs, run events). Every read names the owner in its WHERE clause. Writes that
 * read first lock the thread row, so two servers starting runs on one thread see each other.
 */
export const runLog = {
  async startRun(client: PoolClient, run: RunStart): Promise<RunRecord> {
    for (const [field, value] of Object.entries(run)) {
      if (!value) throw new ValidationError(`A run needs a non-empty ${field}.`);
    }
    const now = new Date();
    await client.query(
      `INSERT INTO threads (thread_id, agent, owner, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT (thread_id) DO NOTHING`,
      [run.threadId, '', run.user, now],
    );
    const thread = (await client.query<{ owner: string; agent: string }>('SELECT owner, agent FROM threads WHERE thread_id = $1 FOR UPDATE', [run.threadId]))
      .rows[0] as { owner: string; agent: string };
    if (thread.owner !== run.user) throw new ThreadForbiddenError(run.threadId, run.user);
    if (thread.agent && thread.agent !== run.agent) {
      // Each agent checkpoints its own state shape: one thread cannot hold two.
      throw new EvidentError('thread_agent_mismatch', `Thread ${run.threadId} belongs to the ${thread.agent} agent, not ${run.agent}.`, {
        category: 'user',
        hint: `Start a new thread for ${run.agent}, or ask ${thread.agent} on this one.`,
      });
    }
    // The thread row is locked: a concurrent start on this thread waits here and then sees this run.
    const live = await client.query(
      `SELECT 1 FROM runs r WHERE r.thread_id = $1 AND r.status = 'running'
       AND greatest(r.started_at, (SELECT max(e.created_at) FROM run_events e WHERE e.run_id = r.run_id)) > $2`,
      [run.threadId, new Date(now.getTime() - RUN_STALE_AFTER_MS)],
    );
    if ((live.rowCount ?? 0) > 0) throw threadBusyError(run.threadId);
    await client.query('UPDATE threads SET updated_at = $2, agent = $3 WHERE thread_id = $1', [run.threadId, now, run.agent]);
    await client.query(
      `INSERT INTO runs (run_id, thread_id, agent, user_name, question, status, started_at) VALUES ($1, $2, $3, $4, $5, 'running', $6)`,
      [run.runId, run.threadId, run.agent, run.user, run.question, now],
    );
    return (await runLog.get(client, run.runId)) as RunRecord;
  },

  async finishRun(client: PoolClient, runId: string, outcome: { status: RunRecordStatus; error?: string }): Promise<RunRecord> {
    const finished = new Date();
    const row = (await client.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.run_id = $1 FOR UPDATE`, [runId])).rows[0];
    if (!row) throw new NotFoundError('run', runId);
    const durationMs = Math.max(0, finished.getTime() - row.started_at.getTime());
    await client.query('UPDATE runs SET status = $2, error = $3, finished_at = $4, duration_ms = $5 WHERE run_id = $1', [
      runId,
      outcome.status,
      outcome.error ?? null,
      finished,
      durationMs,
    ]);
    await client.query('UPDATE threads SET updated_at = $2 WHERE thread_id = $1', [row.thread_id, finished]);
    return (await runLog.get(client, runId)) as RunRecord;
  },

  async listRuns(client: PoolClient, threadId: string, user: string): Promise<RunRecord[]> {
    const result = await client.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs r JOIN threads t ON t.thread_id = r.thread_id
       WHERE r.thread_id = $1 AND t.owner = $2 ORDER BY r.started_at, r.seq`,
      [threadId, user],
    );
    return result.rows.map(toRunRecord);
  },

  async listThreads(client: PoolClient, user: string): Promise<ThreadSummary[]> {
    const result = await client.query<ThreadSummaryRow>(
      `SELECT ${THREAD_COLUMNS}, l.question AS last_question, l.status AS last_status,
              (SELECT count(*) FROM runs WHERE thread_id = t.thread_id) AS run_count
       FROM threads t
       LEFT JOIN LATERAL (SELECT question, status FROM runs WHERE thread_id = t.thread_id ORDER BY started_at DESC, seq DESC LIMIT 1) l ON true
       WHERE t.owner = $1 ORDER BY t.updated_at DESC, t.seq DESC`,
      [user],
    );
    return result.rows.map((row) => {
      const { owner: _owner, ...thread } = toThreadRecord(row);
      return {
        ...thread,
        lastQuestion: row.last_question ?? '',
        ...(row.last_status ? { lastStatus: row.last_status } : {}),
        runCount: Number(row.run_count),
      };
    });
  },

  async createThread(client: PoolClient, thread: { threadId: string; owner: string; metadata?: Record<string, unknown> }): Promise<ThreadRecord> {
    if (!thread.threadId || !thread.owner) throw new ValidationError('A thread needs a non-empty id and owner.');
    const now = new Date();
    const inserted = await client.query(
      `INSERT INTO threads (thread_id, agent, owner, metadata, created_at, updated_at) VALUES ($1, '', $2, $3, $4, $4) ON CONFLICT DO NOTHING`,
      [thread.threadId, thread.owner, JSON.stringify(thread.metadata ?? {}), now],
    );
    if (inserted.rowCount === 0) {
      // Same message whoever owns it: an id says nothing about another user's thread.
      throw new EvidentError('thread_exists', `Thread ${thread.threadId} already exists.`, {
        category: 'user',
        hint: 'Omit thread_id to get a new one, or use if_exists: "do_nothing".',
      });
    }
    return (await runLog.getThread(client, thread.threadId)) as ThreadRecord;
  },

  async getThread(client: PoolClient, threadId: string): Promise<ThreadRecord | undefined> {
    const row = (await client.query<ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.thread_id = $1`, [threadId])).rows[0];
    return row ? toThreadRecord(row) : undefined;
  },

  async deleteThread(client: PoolClient, threadId: string, owner: string): Promise<boolean> {
    return ((await client.query('DELETE FROM threads WHERE thread_id = $1 AND owner = $2', [threadId, owner])).rowCount ?? 0) > 0;
  },

  /** One INSERT for the batch: a taken sequence number or an unknown run fails it whole. */
  async appendRunEvents(client: PoolClient, events: readonly RunEventRecord[]): Promise<void> {
    try {
      await client.query(
        `INSERT INTO run_events (run_id, seq, event, data, created_at)
         SELECT run_id, seq, event, data, $5 FROM unnest($1::text[], $2::int[], $3::text[], $4::json[]) AS e(run_id, seq, event, data)`,
        [events.map((e) => e.runId), events.map((e) => e.seq), events.map((e) => e.event), events.map((e) => JSON.stringify(e.data ?? null)), new Date()],
      );
    } catch (error) {
      const { code, detail } = error as { code?: string; detail?: string };
      if (code === '23505') {
        const taken = /\(run_id, seq\)=\((.*), (\d+)\)/.exec(detail ?? '');
        const which = taken ? `Run ${taken[1]} already has an event ${taken[2]}.` : 'A run already has one of these event numbers.';
        throw new EvidentError('run_event_conflict', which, { category: 'system', cause: error });
      }
      if (code === '23503') throw new NotFoundError('run', events.find((e) => e.runId)?.runId ?? '');
      throw error;
    }
  },

  async listRunEvents(client: PoolClient, runId: string, afterSeq: number, limit: number): Promise<RunEventRecord[]> {
    const result = await client.query<{ seq: number; event: string; data: unknown }>(
      'SELECT seq, event, data FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [runId, afterSeq, limit],
    );
    return result.rows.map((row) => ({ runId, seq: row.seq, event: row.event, data: row.data }));
  },

  async requestCancel(client: PoolClient, runId: string): Promise<boolean> {
    const result = await client.query("UPDATE runs SET cancel_requested = true WHERE run_id = $1 AND status = 'running'", [runId]);
    return (result.rowCount ?? 0) > 0;
  },

  async get(client: PoolClient, runId: string): Promise<RunRecord | undefined> {
    const row = (await client.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.run_id = $1`, [runId])).rows[0];
    return row ? toRunRecord(row) : undefined;
  },
};
