import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.RunLeaseLostError';
const symbol = Symbol.for(marker);

/**
 * A process wrote to a run it no longer holds the lease of (it stalled past the lease, and another process claimed
 * the run or a new run took its thread). The write is refused so that the run has one writer; a system error.
 */
export class RunLeaseLostError extends EvidentError {
  private readonly [symbol] = true;

  constructor(runId: string, owner: string) {
    super('run_lease_lost', `Run ${runId} is no longer held by ${owner}.`, { category: 'system' });
  }

  static override isInstance(error: unknown): error is RunLeaseLostError {
    return EvidentError.hasMarker(error, marker);
  }
}
