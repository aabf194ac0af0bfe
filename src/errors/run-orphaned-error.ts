import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.RunOrphanedError';
const symbol = Symbol.for(marker);

/**
 * A run whose process stopped (its lease expired) and that could not be resumed: no checkpoint of it to continue
 * from, or a later run took its thread. Public, so a client that re-joins the run reads why it ended.
 */
export class RunOrphanedError extends EvidentError {
  private readonly [symbol] = true;

  constructor(runId: string) {
    super(
      'run_orphaned',
      `The process running this run stopped; run ${runId} could not be resumed from a checkpoint of its own.`,
      {
        category: 'upstream',
        hint: 'Ask again: the thread accepts a new question.',
      },
    );
  }

  static override isInstance(error: unknown): error is RunOrphanedError {
    return EvidentError.hasMarker(error, marker);
  }
}
