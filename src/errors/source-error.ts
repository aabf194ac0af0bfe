import type { SourceErrorCode } from './error-code.ts';
import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

const marker = 'evident.error.SourceError';
const symbol = Symbol.for(marker);

/**
 * A source (a folder or a site being synced) that cannot be read as asked: a missing root, a URL off the site's
 * origin or disallowed by its robots.txt, a fetch that failed or went over its bounds. The code says which; a sync
 * that meets one for its root changes nothing, so a source that is away never reads as "everything was deleted".
 */
export class SourceError extends EvidentError {
  private readonly [symbol] = true;
  declare readonly code: SourceErrorCode;

  constructor(code: SourceErrorCode, message: string, options: EvidentErrorOptions = {}) {
    super(code, message, { category: 'user', ...options });
  }

  static override isInstance(error: unknown): error is SourceError {
    return EvidentError.hasMarker(error, marker);
  }
}
