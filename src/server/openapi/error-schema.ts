import { z } from 'zod';

/** The body of every error response (see `error-response.ts`): a stable code, what happened, what to do. */
export const errorBodyJson = z
  .object({
    error: z
      .object({
        code: z.string().describe('Stable machine-readable code, e.g. `unauthorized`, `invalid_input`, `not_found`.'),
        message: z.string(),
        hint: z.string().nullable().describe('What to do about it.'),
      })
      .strict(),
  })
  .strict();

export const ERROR_SCHEMA_REF = { $ref: '#/components/schemas/Error' };
