import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.RunNotRunningError';
const symbol = Symbol.for(marker);

/** A cancel of a run that has already ended. */
export class RunNotRunningError extends EvidentError {
  private readonly [symbol] = true;

  constructor(runId: string, status: string) {
    super('run_not_running', `Run ${runId} is not running (it is ${status}).`, {
      category: 'user',
      hint: 'Only a running run can be cancelled.',
    });
  }

  static override isInstance(error: unknown): error is RunNotRunningError {
    return EvidentError.hasMarker(error, marker);
  }
}
