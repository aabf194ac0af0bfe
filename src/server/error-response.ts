import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isEvidentError, publicErrorOf, type ErrorCode, type EvidentError, type PublicError } from '../errors/index.ts';

export interface ErrorBody {
  error: PublicError;
}

// Codes not listed take their category's status: user 400, upstream 502, system 500.
const STATUS_BY_CODE: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  unauthorized: 401,
  forbidden: 403,
  thread_forbidden: 403,
  namespace_forbidden: 403,
  assistant_read_only: 403,
  thread_state_read_only: 403,
  csrf_rejected: 403,
  assistant_exists: 409,
  directory_conflict: 409,
  not_found: 404,
  document_file_unavailable: 404,
  invalid_input: 400,
  embedder_mismatch: 409,
  // The request is fine but the thread or run is not in a state that allows it now.
  thread_exists: 409,
  thread_busy: 409,
  thread_interrupted: 409,
  thread_agent_mismatch: 409,
  no_pending_approval: 409,
  run_not_running: 409,
  run_not_finished: 409,
  payload_too_large: 413,
  too_many_runs: 429,
};

function statusOf(error: EvidentError): ContentfulStatusCode {
  const byCode = STATUS_BY_CODE[error.code];
  if (byCode) return byCode;
  if (error.category === 'user') return 400;
  return error.category === 'upstream' ? 502 : 500;
}

/**
 * The JSON body and status for an error. User and upstream errors say what happened (their messages are written
 * not to leak content); anything else becomes an opaque 500, since its text was never reviewed for that.
 */
export function errorResponse(error: unknown): { status: ContentfulStatusCode; body: ErrorBody } {
  const shown = publicErrorOf(error);
  const status = isEvidentError(error) && error.category !== 'system' ? statusOf(error) : 500;
  return { status, body: { error: shown } };
}
