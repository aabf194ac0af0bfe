import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';

/**
 * What the in-process connection accepts, by the rules `POST /v1/search` and `/v1/chat/completions` apply to the same
 * fields, so a retriever or tool gets the same refusal in process as over HTTP. The length limits are checked after
 * (they come from the config, with errors that name their setting).
 */
const searchInput = z.object({
  query: z.string().trim().min(1, 'a non-empty query is required'),
  topK: z.number().int().positive().max(200).optional(),
  channels: z
    .array(z.enum(['bm25', 'vector']))
    .min(1)
    .optional(),
});

const askInput = z.object({
  question: z.string().trim().min(1, 'a non-empty question is required'),
  agent: z.string().min(1).optional(),
  threadId: z.string().min(1).optional(),
});

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || what;
  throw new ValidationError(`Invalid ${what}: ${field}: ${issue?.message ?? 'invalid'}.`, {
    hint: 'A non-empty query or question; top_k from 1 to 200; channels bm25 and/or vector.',
  });
}

export const searchInputOf = (value: unknown) => parsed(searchInput, value, 'search');
export const askInputOf = (value: unknown) => parsed(askInput, value, 'ask');
