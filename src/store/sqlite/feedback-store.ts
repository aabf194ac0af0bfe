import { NotFoundError } from '../../errors/index.ts';
import { normalizeFeedbackQuery, validateFeedbackWrite } from '../feedback-rules.ts';
import type { FeedbackReason, FeedbackRating, FeedbackRecord, FeedbackStore } from '../ports/feedback-store.ts';
import type { RunRecordStatus } from '../ports/run-log.ts';
import type { SqliteConnection } from './connection.ts';

interface FeedbackRow {
  id: number;
  run_id: string;
  rater: string;
  rating: string;
  reason: string | null;
  comment: string | null;
  correction: string | null;
  answer: string | null;
  created_at: string;
  updated_at: string;
  thread_id: string;
  agent: string;
  user: string;
  question: string;
  status: string;
}

const SELECT = `SELECT f.id, f.run_id, f.rater, f.rating, f.reason, f.comment, f.correction, f.answer, f.created_at,
  f.updated_at, r.thread_id, r.agent, r.user, r.question, r.status FROM feedback f JOIN runs r ON r.run_id = f.run_id`;

/** Ratings of runs' answers on SQLite: one row per (run, rater), upserted; the run's fields come from its row. */
export function sqliteFeedbackStore(conn: SqliteConnection): FeedbackStore {
  const getOne = (runId: string, rater: string) =>
    conn.stmt(`${SELECT} WHERE f.run_id = ? AND f.rater = ?`).get(runId, rater) as FeedbackRow | undefined;
  return {
    async putFeedback(input) {
      conn.assertWritable();
      const write = validateFeedbackWrite(input);
      return conn.guard('record feedback', () =>
        conn.immediate(() => {
          if (!conn.stmt('SELECT 1 FROM runs WHERE run_id = ?').get(write.runId))
            throw new NotFoundError('run', write.runId);
          const now = new Date().toISOString();
          conn
            .stmt(
              `INSERT INTO feedback (run_id, rater, rating, reason, comment, correction, answer, created_at, updated_at)
               VALUES (@runId, @rater, @rating, @reason, @comment, @correction, @answer, @now, @now)
               ON CONFLICT (run_id, rater) DO UPDATE SET rating = excluded.rating, reason = excluded.reason,
                 comment = excluded.comment, correction = excluded.correction, answer = excluded.answer,
                 updated_at = excluded.updated_at`,
            )
            .run({
              runId: write.runId,
              rater: write.rater,
              rating: write.rating,
              reason: write.reason ?? null,
              comment: write.comment ?? null,
              correction: write.correction ?? null,
              answer: write.answer,
              now,
            });
          return toFeedbackRecord(getOne(write.runId, write.rater) as FeedbackRow);
        }),
      );
    },

    async getFeedback(runId, rater) {
      conn.assertOpen();
      return conn.guard('read feedback', () => {
        const row = getOne(runId, rater);
        return row ? toFeedbackRecord(row) : undefined;
      });
    },

    async deleteFeedback(runId, rater) {
      conn.assertWritable();
      return conn.guard(
        'delete feedback',
        () => conn.stmt('DELETE FROM feedback WHERE run_id = ? AND rater = ?').run(runId, rater).changes > 0,
      );
    },

    async listFeedback(query) {
      conn.assertOpen();
      const q = normalizeFeedbackQuery(query);
      const where: string[] = [];
      const params: Record<string, unknown> = { limit: q.limit };
      const filter = (sql: string, name: string, value: unknown) => {
        if (value === undefined) return;
        where.push(sql);
        params[name] = value;
      };
      filter('r.agent = @agent', 'agent', q.agent);
      filter('f.rating = @rating', 'rating', q.rating);
      filter('f.rater = @rater', 'rater', q.rater);
      filter('f.run_id = @runId', 'runId', q.runId);
      filter('f.updated_at >= @since', 'since', q.since);
      filter('f.updated_at <= @until', 'until', q.until);
      filter('f.id < @beforeId', 'beforeId', q.beforeId);
      if (q.hasCorrection !== undefined) where.push(`f.correction IS ${q.hasCorrection ? 'NOT ' : ''}NULL`);
      const sql = `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY f.id DESC LIMIT @limit`;
      return conn.guard('list feedback', () => (conn.stmt(sql).all(params) as FeedbackRow[]).map(toFeedbackRecord));
    },

    async countFeedback() {
      conn.assertOpen();
      return conn.guard('count feedback', () =>
        (
          conn
            .stmt(
              `SELECT r.agent, sum(f.rating = 'up') AS up, sum(f.rating = 'down') AS down,
                 sum(f.correction IS NOT NULL) AS with_correction
               FROM feedback f JOIN runs r ON r.run_id = f.run_id GROUP BY r.agent ORDER BY r.agent`,
            )
            .all() as { agent: string; up: number; down: number; with_correction: number }[]
        ).map((row) => ({ agent: row.agent, up: row.up, down: row.down, withCorrection: row.with_correction })),
      );
    },
  };
}

function toFeedbackRecord(row: FeedbackRow): FeedbackRecord {
  return {
    id: row.id,
    runId: row.run_id,
    rater: row.rater,
    rating: row.rating as FeedbackRating,
    ...(row.reason !== null ? { reason: row.reason as FeedbackReason } : {}),
    ...(row.comment !== null ? { comment: row.comment } : {}),
    ...(row.correction !== null ? { correction: row.correction } : {}),
    answer: row.answer,
    threadId: row.thread_id,
    agent: row.agent,
    user: row.user,
    question: row.question,
    runStatus: row.status as RunRecordStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
