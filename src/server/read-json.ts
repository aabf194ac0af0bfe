import type { Context } from 'hono';
import type { z } from 'zod';
import { LIMITS_DEFAULTS, limitSetting, type LimitsConfig } from '../config/index.ts';
import { InputTooLargeError, PayloadTooLargeError, ValidationError } from '../errors/index.ts';
import { nestsDeeperThan } from './json-depth.ts';
import type { ServerEnv } from './server-env.ts';

/** The request limits `createApp` put on the context (the documented defaults for an app built without them). */
export const requestLimits = (c: Context<ServerEnv>): LimitsConfig => c.get('limits') ?? LIMITS_DEFAULTS;

const tooLarge = (limit: number) =>
  new PayloadTooLargeError(limit, 'request body', `Send a smaller body, or raise ${limitSetting('maxBodyBytes')}.`);

/**
 * The body as text, refused (413) once it passes `maxBytes`: at once when Content-Length says so, else as soon as
 * the bytes read go over, so no request makes the server buffer more than the limit.
 */
async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, total));
  } catch {
    throw new ValidationError('The request body is not valid UTF-8.', { hint: 'Send JSON encoded as UTF-8.' });
  }
}

/**
 * Reads a JSON request body against a schema: the one JSON reader of the server, so every route gets the body
 * limits (bytes, then nesting depth, both before parsing); a 400 names the first bad field.
 */
export async function readJson<T extends z.ZodType>(c: Context<ServerEnv>, schema: T): Promise<z.infer<T>> {
  const limits = requestLimits(c);
  const text = await readBodyText(c.req.raw, limits.maxBodyBytes);
  if (nestsDeeperThan(text, limits.maxJsonDepth)) {
    throw new InputTooLargeError({
      what: 'the request body',
      unit: 'levels of nesting',
      limit: limits.maxJsonDepth,
      setting: limitSetting('maxJsonDepth'),
      fix: 'Send flatter JSON',
    });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ValidationError('The request body is not valid JSON.', {
      hint: 'Send a JSON object with Content-Type: application/json.',
    });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Bounded: a path is made of the client's keys.
    const where = issue?.path.length ? issue.path.join('.').slice(0, 200) : 'body';
    throw new ValidationError(`Invalid request at ${where}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}
