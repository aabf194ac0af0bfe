import { EvidentError } from '../errors/index.ts';

/** A second run on a thread whose run is still going, refused by the store whichever process asked. */
export const threadBusyError = (threadId: string): EvidentError =>
  new EvidentError('thread_busy', `Thread ${threadId} has a run in progress.`, {
    category: 'user',
    hint: 'Join or cancel the running run first, or ask on another thread.',
  });
