import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.RunNotFinishedError';
const symbol = Symbol.for(marker);

/** A rating of a run that has no answer to rate yet (still running, queued, or waiting for an approval) or failed. */
export class RunNotFinishedError extends EvidentError {
  private readonly [symbol] = true;

  constructor(runId: string, status: string) {
    super('run_not_finished', `Run ${runId} has no answer to rate (it is ${status}).`, {
      category: 'user',
      hint: 'Rate a run once it has answered or refused; wait for it (or decide its pending approval) first.',
    });
  }

  static override isInstance(error: unknown): error is RunNotFinishedError {
    return EvidentError.hasMarker(error, marker);
  }
}
