import type { ErrorCode } from './error-code.ts';
import { isEvidentError } from './evident-error.ts';

/** What a client may be told of an error. */
export interface PublicError {
  code: ErrorCode;
  message: string;
  hint: string | null;
}

/**
 * User and upstream errors say what happened (their messages are written not to leak content); anything else is
 * opaque, since its text was never reviewed for that.
 */
export function publicErrorOf(error: unknown): PublicError {
  if (isEvidentError(error) && error.category !== 'system')
    return { code: error.code, message: error.message, hint: error.hint ?? null };
  const code = isEvidentError(error) ? error.code : 'internal';
  return { code, message: 'The server failed to handle the request.', hint: 'See the server log.' };
}
