import { z } from 'zod';
import { citationSchema } from '../../domain/answer.ts';
import { searchResultSchema } from '../../server/schemas/search-json.ts';

/** What a client adapter reads of an Evident server's answers; anything else is not an Evident server. */

export const searchResponseSchema = z.object({ results: z.array(searchResultSchema) });

/** The `evident` extension of a chat completion: the run's status and ids, its answer contract, its pending action. */
export const completionResponseSchema = z.object({
  evident: z.object({
    status: z.string(),
    thread_id: z.string(),
    run_id: z.string(),
    answer: z.string().optional(),
    answerable: z.boolean().optional(),
    confidence: z.number().optional(),
    citations: z.array(citationSchema).optional(),
    missing_information: z.array(z.string()).optional(),
    pending_action: z
      .object({ tool: z.string(), args: z.record(z.string(), z.unknown()), approval_id: z.string() })
      .optional(),
  }),
});

/** Both error shapes a server sends: Evident's `{error: {code, message, hint}}` and OpenAI's `{error: {code, message, type}}`. */
export const errorResponseSchema = z.object({
  error: z.object({ code: z.string().nullish(), message: z.string().nullish(), hint: z.string().nullish() }),
});
