import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.TooManyRunsError';
const symbol = Symbol.for(marker);

/** A run refused because the user, or the server, already executes as many runs as it allows at once. */
export class TooManyRunsError extends EvidentError {
  private readonly [symbol] = true;
  /** Seconds after which a retry may find room (HTTP `Retry-After`). */
  readonly retryAfterSeconds: number;

  constructor(scope: 'user' | 'server', limit: number, setting: string, retryAfterSeconds = 2) {
    super(
      'too_many_runs',
      `${scope === 'user' ? 'You already have' : 'This server already executes'} ${limit} run${limit === 1 ? '' : 's'} at once.`,
      {
        category: 'user',
        hint: `Retry in a few seconds, when a run has ended (the limit is ${setting}).`,
        details: { scope, limit, retry_after_seconds: retryAfterSeconds },
      },
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }

  static override isInstance(error: unknown): error is TooManyRunsError {
    return EvidentError.hasMarker(error, marker);
  }
}
