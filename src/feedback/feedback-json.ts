import type { FeedbackJson, FeedbackPageJson } from '../server/schemas/feedback-json.ts';
import type { FeedbackQuery, FeedbackRecord, FeedbackStore } from '../store/store.ts';

/** A rating on the wire (HTTP, MCP, `evident feedback --json`): snake_case, every field present (null when unset). */
export const feedbackRecordJson = (record: FeedbackRecord): FeedbackJson => ({
  id: record.id,
  run_id: record.runId,
  thread_id: record.threadId,
  agent: record.agent,
  user: record.user,
  rater: record.rater,
  rating: record.rating,
  reason: record.reason ?? null,
  comment: record.comment ?? null,
  correction: record.correction ?? null,
  question: record.question,
  run_status: record.runStatus,
  answer: record.answer,
  created_at: record.createdAt,
  updated_at: record.updatedAt,
});

export interface FeedbackPage {
  feedback: FeedbackRecord[];
  /** The id to pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** One page, newest first: one record more than the page is read, so the last page says so (no cursor to an empty page). */
export async function readFeedbackPage(
  store: Pick<FeedbackStore, 'listFeedback'>,
  query: FeedbackQuery,
): Promise<FeedbackPage> {
  const found = await store.listFeedback({ ...query, limit: query.limit + 1 });
  const feedback = found.slice(0, query.limit);
  const last = feedback.at(-1);
  return { feedback, nextCursor: found.length > query.limit && last ? String(last.id) : null };
}

export const feedbackPageJson = (page: FeedbackPage): FeedbackPageJson => ({
  feedback: page.feedback.map(feedbackRecordJson),
  next_cursor: page.nextCursor,
});
