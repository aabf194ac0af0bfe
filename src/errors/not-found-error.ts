import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.NotFoundError';
const symbol = Symbol.for(marker);

/** Something asked for does not exist (a document, a user, a thread the caller may see). */
export class NotFoundError extends EvidentError {
  private readonly [symbol] = true;

  constructor(what: string, id: string, hint?: string) {
    super('not_found', `No ${what} named ${JSON.stringify(id)}.`, { category: 'user', ...(hint ? { hint } : {}) });
  }

  static override isInstance(error: unknown): error is NotFoundError {
    return EvidentError.hasMarker(error, marker);
  }
}
