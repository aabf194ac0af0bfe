import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ThreadStateReadOnlyError';
const symbol = Symbol.for(marker);

/**
 * A client asked to write a thread's graph state (LangGraph's `updateState` or `patchState`). The state holds the
 * evidence retrieved under the reader's permissions, the citations and the checked answer; a written value would be
 * trusted as evidence by the next run's gate, so only runs write it.
 */
export class ThreadStateReadOnlyError extends EvidentError {
  private readonly [symbol] = true;

  constructor(threadId: string) {
    super(
      'thread_state_read_only',
      `The state of thread ${JSON.stringify(threadId)} is written only by its runs: it holds the evidence and citations an answer is checked against.`,
      {
        category: 'user',
        hint: 'Start a run on the thread (POST /threads/{thread_id}/runs) to change its state, or fork an earlier state with checkpoint_id on a new run.',
      },
    );
  }

  static override isInstance(error: unknown): error is ThreadStateReadOnlyError {
    return EvidentError.hasMarker(error, marker);
  }
}
