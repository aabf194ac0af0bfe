import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.RunEventConflictError';
const symbol = Symbol.for(marker);

/**
 * A run event with a sequence number the run already has: two writers on one run, which is a bug, hence system.
 * `taken` is the run and number when the store's error names them.
 */
export class RunEventConflictError extends EvidentError {
  private readonly [symbol] = true;

  constructor(taken: { runId: string; seq: number | string } | undefined, cause: unknown) {
    super(
      'run_event_conflict',
      taken ? `Run ${taken.runId} already has an event ${taken.seq}.` : 'A run already has one of these event numbers.',
      {
        category: 'system',
        cause,
      },
    );
  }

  static override isInstance(error: unknown): error is RunEventConflictError {
    return EvidentError.hasMarker(error, marker);
  }
}
