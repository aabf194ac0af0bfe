import { isAdmin, type Principal } from '../../domain/index.ts';
import { NotFoundError } from '../../errors/index.ts';
import type { RunRecord, Store, ThreadRecord } from '../../store/store.ts';

/**
 * Who may see a thread and its runs: the owner, and admins (who audit and approve). Anyone else gets the answer a
 * missing thread gets, so an id reveals nothing of another user's threads.
 */
export async function readableThread(store: Store, threadId: string, principal: Principal): Promise<ThreadRecord> {
  const thread = await store.getThread(threadId);
  if (!thread || (thread.owner !== principal.id && !isAdmin(principal))) throw new NotFoundError('thread', threadId);
  return thread;
}

/** Only the owner continues, deletes or cancels in their own thread. */
export async function ownThread(store: Store, threadId: string, principal: Principal): Promise<ThreadRecord> {
  const thread = await store.getThread(threadId);
  if (!thread || thread.owner !== principal.id) throw new NotFoundError('thread', threadId);
  return thread;
}

/** A run of a thread the principal may read; a run of another thread is not found through this one. */
export async function readableRun(store: Store, threadId: string, runId: string, principal: Principal): Promise<RunRecord> {
  await readableThread(store, threadId, principal);
  const run = await store.getRun(runId);
  if (!run || run.threadId !== threadId) throw new NotFoundError('run', runId);
  return run;
}
