import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.UnauthorizedError';
const symbol = Symbol.for(marker);

/** No API key, or one the server does not know. The message never says which, so keys cannot be probed. */
export class UnauthorizedError extends EvidentError {
  private readonly [symbol] = true;

  constructor() {
    super('unauthorized', 'Missing or invalid API key.', {
      category: 'user',
      hint: 'Send `Authorization: Bearer <key>` (or `x-api-key`); create a key with `evident keys create <user>`.',
    });
  }

  static override isInstance(error: unknown): error is UnauthorizedError {
    return EvidentError.hasMarker(error, marker);
  }
}
