import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ClientClosedError';
const symbol = Symbol.for(marker);

/** The client went away before a run it waited on ended; the run goes on, recorded. */
export class ClientClosedError extends EvidentError {
  private readonly [symbol] = true;

  constructor() {
    super('client_closed', 'The client closed the request before the run ended.', { category: 'user' });
  }

  static override isInstance(error: unknown): error is ClientClosedError {
    return EvidentError.hasMarker(error, marker);
  }
}
