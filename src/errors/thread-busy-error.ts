import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ThreadBusyError';
const symbol = Symbol.for(marker);

/** A second run on a thread whose run is still going, refused by the store whichever process asked. */
export class ThreadBusyError extends EvidentError {
  private readonly [symbol] = true;

  constructor(threadId: string) {
    super('thread_busy', `Thread ${threadId} has a run in progress.`, {
      category: 'user',
      hint: 'Join or cancel the running run first, or send multitask_strategy "enqueue" (run after it), "interrupt" (stop it) or "rollback" (stop and delete it).',
    });
  }

  static override isInstance(error: unknown): error is ThreadBusyError {
    return EvidentError.hasMarker(error, marker);
  }
}
