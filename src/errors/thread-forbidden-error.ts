import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ThreadForbiddenError';
const symbol = Symbol.for(marker);

/**
 * A thread is its owner's: its checkpoints hold their history and evidence. The message is the same whether the
 * thread is another user's or does not exist in a form the caller may see, and says nothing of what it holds.
 */
export class ThreadForbiddenError extends EvidentError {
  private readonly [symbol] = true;

  constructor(threadId: string, user: string) {
    super('thread_forbidden', `Thread ${threadId} is not available to ${user}.`, {
      category: 'user',
      hint: 'Omit --thread to start a new thread, or continue one of your own.',
    });
  }

  static override isInstance(error: unknown): error is ThreadForbiddenError {
    return EvidentError.hasMarker(error, marker);
  }
}
