import type { Context } from 'hono';
import type { z } from 'zod';
import { ValidationError } from '../errors/index.ts';

/** Parses a JSON request body against a schema; a 400 names the first bad field. */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ValidationError('The request body is not valid JSON.', { hint: 'Send a JSON object with Content-Type: application/json.' });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'body';
    throw new ValidationError(`Invalid request at ${where}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}
