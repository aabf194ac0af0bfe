import { z } from 'zod';

/** A filter's text value in a query string: trimmed, never empty, bounded. */
export const queryText = z.string().trim().min(1).max(512);

/**
 * The time range and paging a log read takes as query parameters (all text, snake_case): `since`/`until` (ISO
 * times), `limit` (1 to `maxLimit`) and `cursor` (the previous page's `next_cursor`). The audit log's and the
 * feedback's filters share them.
 */
export const pageQueryFields = (maxLimit: number) => ({
  since: z.string().trim().min(1).max(64).optional(),
  until: z.string().trim().min(1).max(64).optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(maxLimit))
    .optional(),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'the next_cursor of the previous page')
    .transform(Number)
    .optional(),
});
