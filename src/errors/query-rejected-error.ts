import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

const marker = 'evident.error.QueryRejectedError';
const symbol = Symbol.for(marker);

/**
 * A read-only table query that was refused (not one SELECT, or a table outside the allowed ones) or stopped
 * (time limit). The message says what is allowed and never whether a refused table exists.
 */
export class QueryRejectedError extends EvidentError {
  private readonly [symbol] = true;
  declare readonly code: 'query_rejected' | 'query_timeout';

  constructor(code: 'query_rejected' | 'query_timeout', message: string, options: EvidentErrorOptions = {}) {
    super(code, message, { category: 'user', ...options });
  }

  static override isInstance(error: unknown): error is QueryRejectedError {
    return EvidentError.hasMarker(error, marker);
  }
}
