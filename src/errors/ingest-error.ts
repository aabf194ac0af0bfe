import type { IngestErrorCode } from './error-code.ts';
import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

const marker = 'evident.error.IngestError';
const symbol = Symbol.for(marker);

/**
 * A file that cannot be ingested; the reason is per file and the rest of the batch goes on. One class for all the
 * reasons: the code says which, and the loader that knows the file writes the message and the fix.
 */
export class IngestError extends EvidentError {
  private readonly [symbol] = true;
  declare readonly code: IngestErrorCode;

  constructor(code: IngestErrorCode, message: string, options: EvidentErrorOptions = {}) {
    super(code, message, { category: 'user', ...options });
  }

  static override isInstance(error: unknown): error is IngestError {
    return EvidentError.hasMarker(error, marker);
  }
}
