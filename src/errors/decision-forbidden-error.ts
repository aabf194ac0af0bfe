import { EvidentError } from './evident-error.ts';
import { ForbiddenError } from './forbidden-error.ts';

const marker = 'evident.error.DecisionForbiddenError';
const symbol = Symbol.for(marker);

/** The owner of a thread asked to decide on an action the policy leaves to admins. Only the owner is told so. */
export class DecisionForbiddenError extends ForbiddenError {
  private readonly [symbol] = true;

  constructor(tool: string) {
    super(`decide on ${tool} actions`, 'Ask an admin to approve it.');
  }

  static override isInstance(error: unknown): error is DecisionForbiddenError {
    return EvidentError.hasMarker(error, marker);
  }
}
