import { ThreadBusyError } from '../errors/index.ts';

export { ThreadBusyError };

/** A second run on a thread whose run is still going. Kept for the store's call sites: throw `new ThreadBusyError(threadId)`. */
export const threadBusyError = (threadId: string): ThreadBusyError => new ThreadBusyError(threadId);
