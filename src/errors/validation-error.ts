import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

const marker = 'evident.error.ValidationError';
const symbol = Symbol.for(marker);

/** Bad input to an operation: the message names the field and the fix. */
export class ValidationError extends EvidentError {
  private readonly [symbol] = true;

  constructor(message: string, options: EvidentErrorOptions = {}) {
    super('invalid_input', message, { category: 'user', ...options });
  }

  static override isInstance(error: unknown): error is ValidationError {
    return EvidentError.hasMarker(error, marker);
  }
}
