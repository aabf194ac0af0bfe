import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import { NotFoundError, ThreadBusyError, ValidationError } from '../../../errors/index.ts';
import { ownThread, readableRun, readableThread } from '../../../runs/run-access.ts';
import type { RunManager } from '../../../runs/run-manager.ts';
import type { RunLog } from '../../../store/store.ts';
import { readJson } from '../../read-json.ts';
import type { ServerEnv } from '../../server-env.ts';

/** LangGraph's cancel actions: `interrupt` (the default) stops a run; `rollback` also deletes it with its checkpoints. */
export function cancelActionOf(c: Context<ServerEnv>): 'interrupt' | 'rollback' {
  const action = c.req.query('action') ?? 'interrupt';
  if (action !== 'interrupt' && action !== 'rollback')
    throw new ValidationError(`Unknown cancel action ${JSON.stringify(action.slice(0, 32))}.`, {
      hint: 'Use action=interrupt (the default) or action=rollback.',
    });
  return action;
}

/** The SDK's `runs.cancelMany`: a thread's running and pending runs, or those of them it names. */
export const cancelManySchema = z.object({
  thread_id: z.string().min(1).max(512),
  run_ids: z.array(z.string().min(1).max(512)).min(1).max(100).nullish(),
  status: z.enum(['pending', 'running', 'all']).nullish(),
});

/**
 * Cancelling several runs of a thread at once (`POST /runs/cancel`) and deleting a run (`DELETE
 * /threads/{id}/runs/{run}`), as the LangGraph API has them, with the rights of cancelling one run and of deleting
 * in a thread.
 */
export function runCancelRoutes(runs: RunManager, store: RunLog): Hono<ServerEnv> {
  return new Hono<ServerEnv>()
    .post('/runs/cancel', async (c) => {
      const body = await readJson(c, cancelManySchema);
      const action = cancelActionOf(c);
      const principal = c.get('principal');
      const thread = await readableThread(store, body.thread_id, principal);
      const ofThread = await store.listRuns(thread.threadId, thread.owner);
      const named = body.run_ids ? new Set(body.run_ids) : undefined;
      const unknown = [...(named ?? [])].find((runId) => !ofThread.some((run) => run.runId === runId));
      if (unknown !== undefined) throw new NotFoundError('run', unknown);
      const status = body.status ?? 'all';
      const going = ofThread.filter(
        (run) =>
          (named === undefined || named.has(run.runId)) &&
          (run.status === 'pending' || run.status === 'running') &&
          (status === 'all' || run.status === status),
      );
      // Queued runs first, so that stopping the running one starts none of them.
      const ordered = [
        ...going.filter((run) => run.status === 'pending'),
        ...going.filter((run) => run.status === 'running'),
      ];
      for (const run of ordered) {
        if (action === 'rollback') await runs.rollback(thread.threadId, run.runId, principal);
        else await runs.cancel(thread.threadId, run.runId, principal);
      }
      return c.body(null, 204);
    })
    .delete('/threads/:threadId/runs/:runId', async (c) => {
      const principal = c.get('principal');
      const threadId = c.req.param('threadId');
      // As a thread is deleted: by its owner only. Its checkpoints stay (later runs rest on them).
      await ownThread(store, threadId, principal);
      const run = await readableRun(store, threadId, c.req.param('runId'), principal);
      if (run.status === 'running' || run.status === 'pending') throw new ThreadBusyError(threadId);
      await store.deleteRun(run.runId);
      return c.body(null, 204);
    });
}
