import { NotFoundError } from '../../errors/index.ts';
import { normalizeFeedbackQuery, validateFeedbackWrite } from '../feedback-rules.ts';
import type { FeedbackReason, FeedbackRating, FeedbackRecord, FeedbackStore } from '../ports/feedback-store.ts';
import type { RunRecordStatus } from '../ports/run-log.ts';
import type { PostgresPool } from './pool.ts';

interface FeedbackRow {
  id: string;
  run_id: string;
  rater: string;
  rating: string;
  reason: string | null;
  comment: string | null;
  correction: string | null;
  answer: string | null;
  created_at: Date;
  updated_at: Date;
  thread_id: string;
  agent: string;
  user_name: string;
  question: string;
  status: string;
}

const SELECT = `SELECT f.id, f.run_id, f.rater, f.rating, f.reason, f.comment, f.correction, f.answer, f.created_at,
  f.updated_at, r.thread_id, r.agent, r.user_name, r.question, r.status FROM feedback f JOIN runs r ON r.run_id = f.run_id`;

/** Ratings of runs' answers on PostgreSQL: one row per (run, rater), upserted; the run's fields come from its row. */
export function postgresFeedbackStore(pool: PostgresPool): FeedbackStore {
  return {
    async putFeedback(input) {
      const write = validateFeedbackWrite(input);
      // Times are set here, to the millisecond, as SQLite's are: filters compare what JSON carries.
      const now = new Date();
      const row = await pool.transaction('record feedback', async (c) => {
        const inserted = await c.query<{ id: string }>(
          `INSERT INTO feedback (run_id, rater, rating, reason, comment, correction, answer, created_at, updated_at)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $8 WHERE EXISTS (SELECT 1 FROM runs WHERE run_id = $1)
           ON CONFLICT (run_id, rater) DO UPDATE SET rating = excluded.rating, reason = excluded.reason,
             comment = excluded.comment, correction = excluded.correction, answer = excluded.answer,
             updated_at = excluded.updated_at
           RETURNING id`,
          [
            write.runId,
            write.rater,
            write.rating,
            write.reason ?? null,
            write.comment ?? null,
            write.correction ?? null,
            write.answer,
            now,
          ],
        );
        if (inserted.rowCount === 0) throw new NotFoundError('run', write.runId);
        return (
          await c.query<FeedbackRow>(`${SELECT} WHERE f.run_id = $1 AND f.rater = $2`, [write.runId, write.rater])
        ).rows[0] as FeedbackRow;
      });
      return toFeedbackRecord(row);
    },

    async getFeedback(runId, rater) {
      const row = await pool.withClient(
        'read feedback',
        async (c) =>
          (await c.query<FeedbackRow>(`${SELECT} WHERE f.run_id = $1 AND f.rater = $2`, [runId, rater])).rows[0],
      );
      return row ? toFeedbackRecord(row) : undefined;
    },

    async deleteFeedback(runId, rater) {
      return pool.withClient(
        'delete feedback',
        async (c) =>
          ((await c.query('DELETE FROM feedback WHERE run_id = $1 AND rater = $2', [runId, rater])).rowCount ?? 0) > 0,
      );
    },

    async listFeedback(query) {
      const q = normalizeFeedbackQuery(query);
      const where: string[] = [];
      const params: unknown[] = [];
      const filter = (sql: string, value: unknown) => {
        if (value === undefined) return;
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      filter('r.agent = ?', q.agent);
      filter('f.rating = ?', q.rating);
      filter('f.rater = ?', q.rater);
      filter('f.run_id = ?', q.runId);
      filter('f.updated_at >= ?', q.since);
      filter('f.updated_at <= ?', q.until);
      filter('f.id < ?', q.beforeId);
      if (q.hasCorrection !== undefined) where.push(`f.correction IS ${q.hasCorrection ? 'NOT ' : ''}NULL`);
      params.push(q.limit);
      const sql = `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY f.id DESC LIMIT $${params.length}`;
      const rows = await pool.withClient('list feedback', async (c) => (await c.query<FeedbackRow>(sql, params)).rows);
      return rows.map(toFeedbackRecord);
    },

    async countFeedback() {
      const rows = await pool.withClient(
        'count feedback',
        async (c) =>
          (
            await c.query<{ agent: string; up: string; down: string; with_correction: string }>(
              `SELECT r.agent, count(*) FILTER (WHERE f.rating = 'up') AS up,
                 count(*) FILTER (WHERE f.rating = 'down') AS down,
                 count(*) FILTER (WHERE f.correction IS NOT NULL) AS with_correction
               FROM feedback f JOIN runs r ON r.run_id = f.run_id GROUP BY r.agent ORDER BY r.agent`,
            )
          ).rows,
      );
      return rows.map((row) => ({
        agent: row.agent,
        up: Number(row.up),
        down: Number(row.down),
        withCorrection: Number(row.with_correction),
      }));
    },
  };
}

function toFeedbackRecord(row: FeedbackRow): FeedbackRecord {
  return {
    // bigint arrives as text; ids stay far below 2^53.
    id: Number(row.id),
    runId: row.run_id,
    rater: row.rater,
    rating: row.rating as FeedbackRating,
    ...(row.reason !== null ? { reason: row.reason as FeedbackReason } : {}),
    ...(row.comment !== null ? { comment: row.comment } : {}),
    ...(row.correction !== null ? { correction: row.correction } : {}),
    answer: row.answer,
    threadId: row.thread_id,
    agent: row.agent,
    user: row.user_name,
    question: row.question,
    runStatus: row.status as RunRecordStatus,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
