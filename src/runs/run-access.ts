import { isAdmin, type Principal } from '../domain/index.ts';
import { NotFoundError } from '../errors/index.ts';
import type { RunLog, RunRecord, ThreadRecord } from '../store/store.ts';

/** What anyone but the owner (or, to read, an admin) is told of a thread: what a missing thread gets, nothing more. */
export const threadNotFound = (threadId: string): NotFoundError =>
  new NotFoundError('thread', threadId, 'Start a new thread, or continue one of your own.');

/**
 * Who may see a thread and its runs: the owner, and admins (who audit and approve). Anyone else gets the answer a
 * missing thread gets, so an id reveals nothing of another user's threads.
 */
export async function readableThread(
  store: Pick<RunLog, 'getThread'>,
  threadId: string,
  principal: Principal,
): Promise<ThreadRecord> {
  const thread = await store.getThread(threadId);
  if (!thread || (thread.owner !== principal.id && !isAdmin(principal))) throw threadNotFound(threadId);
  return thread;
}

/** Only the owner continues, deletes or cancels in their own thread. */
export async function ownThread(
  store: Pick<RunLog, 'getThread'>,
  threadId: string,
  principal: Principal,
): Promise<ThreadRecord> {
  const thread = await store.getThread(threadId);
  if (!thread || thread.owner !== principal.id) throw threadNotFound(threadId);
  return thread;
}

/** A run of a thread the principal may read; a run of another thread is not found through this one. */
export async function readableRun(
  store: Pick<RunLog, 'getThread' | 'getRun'>,
  threadId: string,
  runId: string,
  principal: Principal,
): Promise<RunRecord> {
  await readableThread(store, threadId, principal);
  const run = await store.getRun(runId);
  if (!run || run.threadId !== threadId) throw new NotFoundError('run', runId);
  return run;
}
