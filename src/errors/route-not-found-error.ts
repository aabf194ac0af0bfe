import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.RouteNotFoundError';
const symbol = Symbol.for(marker);

/** An HTTP method and path the server has no route for. */
export class RouteNotFoundError extends EvidentError {
  private readonly [symbol] = true;

  constructor(method: string, path: string) {
    super('not_found', `No route ${method} ${path}.`);
  }

  static override isInstance(error: unknown): error is RouteNotFoundError {
    return EvidentError.hasMarker(error, marker);
  }
}
