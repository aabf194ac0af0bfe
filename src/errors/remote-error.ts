import { isErrorCode, type ErrorCode } from './error-code.ts';
import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.RemoteError';
const symbol = Symbol.for(marker);

/** What an Evident server answered with a refusal or failure: its status and its public error body. */
export interface RemoteFailure {
  status: number;
  code?: string;
  message?: string;
  hint?: string;
}

// Codes of the OpenAI-compatible surface that are not Evident's own.
const OPENAI_CODES: Record<string, ErrorCode> = { model_not_found: 'unknown_agent', invalid_api_key: 'unauthorized' };

const codeOf = (failure: RemoteFailure): ErrorCode => {
  if (isErrorCode(failure.code)) return failure.code;
  const mapped = failure.code === undefined ? undefined : OPENAI_CODES[failure.code];
  if (mapped) return mapped;
  if (failure.status === 400) return 'invalid_input';
  if (failure.status === 403) return 'forbidden';
  if (failure.status === 404) return 'not_found';
  if (failure.status === 413) return 'payload_too_large';
  return 'internal';
};

/**
 * An Evident server refused or failed a client adapter's request: the server's own code (so a client branches on it
 * as it would in process), message and hint, and the HTTP status. A 4xx is the caller's to fix; a 5xx is upstream.
 */
export class RemoteError extends EvidentError {
  private readonly [symbol] = true;
  readonly status: number;

  constructor(failure: RemoteFailure) {
    super(codeOf(failure), failure.message || `The Evident server answered ${failure.status}.`, {
      category: failure.status >= 400 && failure.status < 500 ? 'user' : 'upstream',
      ...(failure.hint ? { hint: failure.hint } : {}),
      details: { status: failure.status },
    });
    this.status = failure.status;
  }

  static override isInstance(error: unknown): error is RemoteError {
    return EvidentError.hasMarker(error, marker);
  }
}
