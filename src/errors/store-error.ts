import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

const marker = 'evident.error.StoreError';
const symbol = Symbol.for(marker);

/** The store could not be opened or migrated. */
export class StoreError extends EvidentError {
  private readonly [symbol] = true;

  constructor(message: string, options: EvidentErrorOptions = {}) {
    super('store_failed', message, { category: 'system', ...options });
  }

  static override isInstance(error: unknown): error is StoreError {
    return EvidentError.hasMarker(error, marker);
  }
}
