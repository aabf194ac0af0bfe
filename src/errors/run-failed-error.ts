import { isErrorCode } from './error-code.ts';
import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.RunFailedError';
const symbol = Symbol.for(marker);

/** A run's recorded `error` event: the public error it ended with, as a run event carries it. */
export interface RunFailure {
  error?: string;
  message?: string;
  hint?: string | null;
}

/**
 * A run (started elsewhere, read back from its events) that ended with an error. It keeps the recorded code and
 * public message; a code this version does not know becomes run_failed.
 */
export class RunFailedError extends EvidentError {
  private readonly [symbol] = true;

  constructor(failure: RunFailure) {
    super(isErrorCode(failure.error) ? failure.error : 'run_failed', failure.message ?? 'The run failed.', {
      category: 'system',
      ...(failure.hint ? { hint: failure.hint } : {}),
    });
  }

  static override isInstance(error: unknown): error is RunFailedError {
    return EvidentError.hasMarker(error, marker);
  }
}
