import { EvidentError } from './evident-error.ts';

/** No API key, or one the server does not know. The message never says which, so keys cannot be probed. */
export class UnauthorizedError extends EvidentError {
  constructor() {
    super('unauthorized', 'Missing or invalid API key.', {
      category: 'user',
      hint: 'Send `Authorization: Bearer <key>` (or `x-api-key`); create a key with `evident keys create <user>`.',
    });
  }
}

/** A known principal asked for something their role does not allow. */
export class ForbiddenError extends EvidentError {
  constructor(action: string) {
    super('forbidden', `Only an admin may ${action}.`, { category: 'user', hint: 'Use an admin key.' });
  }
}
