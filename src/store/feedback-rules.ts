import { ValidationError } from '../errors/index.ts';
import {
  FEEDBACK_BOUNDS,
  FEEDBACK_RATINGS,
  FEEDBACK_REASONS,
  MAX_FEEDBACK_PAGE,
  type FeedbackQuery,
  type FeedbackWrite,
} from './ports/feedback-store.ts';

/**
 * The rules every feedback adapter applies, written once: a write within its bounds (a longer answer snapshot is cut,
 * every other field over its bound is refused), a query with valid filters and its times in the stored form.
 */
export function validateFeedbackWrite(write: FeedbackWrite): FeedbackWrite {
  checkId('run id', write.runId);
  checkId('rater', write.rater);
  if (!(FEEDBACK_RATINGS as readonly string[]).includes(write.rating))
    throw new ValidationError(`The rating must be one of ${FEEDBACK_RATINGS.join(', ')}.`, {
      hint: 'Rate an answer up or down.',
    });
  if (write.reason !== undefined && !(FEEDBACK_REASONS as readonly string[]).includes(write.reason))
    throw new ValidationError(`Unknown feedback reason ${JSON.stringify(String(write.reason).slice(0, 64))}.`, {
      hint: `Use one of ${FEEDBACK_REASONS.join(', ')}, and say more in the comment.`,
    });
  checkText('comment', write.comment, FEEDBACK_BOUNDS.maxCommentChars);
  checkText('correction', write.correction, FEEDBACK_BOUNDS.maxCorrectionChars);
  return {
    runId: write.runId,
    rater: write.rater,
    rating: write.rating,
    ...(write.reason !== undefined ? { reason: write.reason } : {}),
    ...(write.comment?.trim() ? { comment: write.comment } : {}),
    ...(write.correction?.trim() ? { correction: write.correction } : {}),
    answer: write.answer === null ? null : write.answer.slice(0, FEEDBACK_BOUNDS.maxAnswerChars),
  };
}

/** The query with its times normalised to the stored form (UTC ISO), or a ValidationError naming the bad filter. */
export function normalizeFeedbackQuery(query: FeedbackQuery): FeedbackQuery {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_FEEDBACK_PAGE)
    throw new ValidationError(`The feedback page limit must be 1 to ${MAX_FEEDBACK_PAGE}.`);
  if (query.beforeId !== undefined && !(Number.isSafeInteger(query.beforeId) && query.beforeId > 0))
    throw new ValidationError('The feedback cursor must be a positive id.', {
      hint: 'Pass the next_cursor of the previous page as it was.',
    });
  if (query.rating !== undefined && !(FEEDBACK_RATINGS as readonly string[]).includes(query.rating))
    throw new ValidationError(`The rating filter must be one of ${FEEDBACK_RATINGS.join(', ')}.`);
  for (const [field, value] of [
    ['agent', query.agent],
    ['user', query.rater],
    ['run_id', query.runId],
  ] as const)
    if (value !== undefined) checkId(field, value);
  return {
    ...query,
    ...(query.since !== undefined ? { since: isoTime('since', query.since) } : {}),
    ...(query.until !== undefined ? { until: isoTime('until', query.until) } : {}),
  };
}

function checkId(field: string, value: string): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > FEEDBACK_BOUNDS.maxIdChars)
    throw new ValidationError(`The feedback ${field} must be 1 to ${FEEDBACK_BOUNDS.maxIdChars} characters.`);
}

function checkText(field: string, value: string | undefined, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'string') throw new ValidationError(`The feedback ${field} must be text.`);
  if (value.length > max)
    throw new ValidationError(`The ${field} has ${value.length} characters; at most ${max} are kept.`, {
      hint: `Shorten the ${field} to ${max} characters.`,
    });
}

function isoTime(field: string, text: string): string {
  const ms = Date.parse(text);
  if (text.length > 64 || Number.isNaN(ms))
    throw new ValidationError(`The feedback filter ${field} is not a time: ${JSON.stringify(text.slice(0, 64))}.`, {
      hint: 'Use an ISO 8601 time or date, e.g. 2026-12-03T19:00:00Z or 2026-12-03.',
    });
  return new Date(ms).toISOString();
}
