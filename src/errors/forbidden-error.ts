import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ForbiddenError';
const symbol = Symbol.for(marker);

/** A known principal asked for something their role does not allow. */
export class ForbiddenError extends EvidentError {
  private readonly [symbol] = true;

  /** `action` completes "Only an admin may …"; `hint` is what the caller can do instead. */
  constructor(action: string, hint = 'Use an admin key.') {
    super('forbidden', `Only an admin may ${action}.`, { category: 'user', hint });
  }

  static override isInstance(error: unknown): error is ForbiddenError {
    return EvidentError.hasMarker(error, marker);
  }
}
