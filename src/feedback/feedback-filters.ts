import { z } from 'zod';
import { pageQueryFields, queryText } from '../domain/page-query.ts';
import { FEEDBACK_RATINGS } from '../domain/feedback.ts';
import { ValidationError } from '../errors/index.ts';
import type { FeedbackQuery } from '../store/store.ts';

/** A page of `GET /v1/feedback` and `evident feedback list`: 50 records unless asked, at most 200. */
export const DEFAULT_FEEDBACK_LIMIT = 50;
export const MAX_FEEDBACK_LIMIT = 200;

/** The filters and paging of a feedback read, as query parameters (all text), snake_case like every surface. */
export const feedbackFiltersSchema = z
  .object({
    agent: queryText.optional(),
    rating: z.enum(FEEDBACK_RATINGS).optional(),
    user: queryText.optional(),
    run_id: queryText.optional(),
    has_correction: z.enum(['true', 'false']).optional(),
    ...pageQueryFields(MAX_FEEDBACK_LIMIT),
  })
  .strict();

export type FeedbackFilters = z.input<typeof feedbackFiltersSchema>;

export const FEEDBACK_FILTERS_HINT = `Filters: agent, rating (${FEEDBACK_RATINGS.join(', ')}), user (who rated), run_id, since, until (ISO times), has_correction (true or false), limit (1-${MAX_FEEDBACK_LIMIT}), cursor.`;

/** Query parameters (or CLI flags in the same names) to a store query; a bad one is `invalid_input` naming it. */
export function feedbackQueryOf(filters: Record<string, string | undefined>): FeedbackQuery {
  const defined = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
  const parsed = feedbackFiltersSchema.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || String((issue as { keys?: string[] } | undefined)?.keys?.[0] ?? 'filter');
    throw new ValidationError(`Invalid feedback filter ${field}: ${issue?.message ?? 'not accepted'}.`, {
      hint: FEEDBACK_FILTERS_HINT,
    });
  }
  const f = parsed.data;
  return {
    limit: f.limit ?? DEFAULT_FEEDBACK_LIMIT,
    ...(f.agent ? { agent: f.agent } : {}),
    ...(f.rating ? { rating: f.rating } : {}),
    ...(f.user ? { rater: f.user } : {}),
    ...(f.run_id ? { runId: f.run_id } : {}),
    ...(f.since ? { since: f.since } : {}),
    ...(f.until ? { until: f.until } : {}),
    ...(f.has_correction ? { hasCorrection: f.has_correction === 'true' } : {}),
    ...(f.cursor ? { beforeId: f.cursor } : {}),
  };
}
