import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.PayloadTooLargeError';
const symbol = Symbol.for(marker);

/** A request body over the server's limit; it is refused before it is buffered further. */
export class PayloadTooLargeError extends EvidentError {
  private readonly [symbol] = true;

  /** `hint` says how to stay within this limit and which setting raises it; the default is the upload's. */
  constructor(
    limitBytes: number,
    what = 'request',
    hint = 'Send fewer or smaller files per request, or raise the limit (EVIDENT_MAX_FILE_BYTES or ingest.maxFileBytes).',
  ) {
    super('payload_too_large', `The ${what} is larger than the server's limit of ${limitBytes} bytes.`, {
      category: 'user',
      hint,
      details: { limitBytes },
    });
  }

  static override isInstance(error: unknown): error is PayloadTooLargeError {
    return EvidentError.hasMarker(error, marker);
  }
}
