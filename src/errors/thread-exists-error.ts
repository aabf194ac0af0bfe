import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ThreadExistsError';
const symbol = Symbol.for(marker);

/** A thread created with an id that is taken. Same message whoever owns it: an id says nothing about another user's thread. */
export class ThreadExistsError extends EvidentError {
  private readonly [symbol] = true;

  constructor(threadId: string) {
    super('thread_exists', `Thread ${threadId} already exists.`, {
      category: 'user',
      hint: 'Omit thread_id to get a new one, or use if_exists: "do_nothing".',
    });
  }

  static override isInstance(error: unknown): error is ThreadExistsError {
    return EvidentError.hasMarker(error, marker);
  }
}
