import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { identifierProblem, MAX_ID_CHARS } from '../../../domain/identifier.ts';
import { NotFoundError, ThreadBusyError, ThreadStateReadOnlyError, ValidationError } from '../../../errors/index.ts';
import { ownThread, readableThread, threadNotFound } from '../../../runs/run-access.ts';
import type { RunManager } from '../../../runs/run-manager.ts';
import type { RunLog } from '../../../store/store.ts';
import { readJson, requestLimits } from '../../read-json.ts';
import { assertMetadataWithin } from '../../request-limits.ts';
import type { ServerEnv } from '../../server-env.ts';
import { threadJson, threadStateJson } from './api-json.ts';
import { matchingThreads, readOptionalJson, threadSearchSchema } from './thread-routes.ts';

/** How many threads one prune names at most. */
export const MAX_PRUNE_THREADS = 1000;

const idSchema = z.string().superRefine((id, context) => {
  const problem = identifierProblem(id);
  if (problem)
    context.addIssue({
      code: 'custom',
      message: `${problem}; use 1 to ${MAX_ID_CHARS} characters without control or bidirectional characters`,
    });
});

/** A thread TTL is not kept: the client is told, rather than the thread silently never expiring. */
const noTtl = z
  .unknown()
  .refine((ttl) => ttl === undefined || ttl === null, {
    message: 'Threads here do not expire: delete a thread (or prune threads) when it is no longer needed',
  })
  .optional();

export const threadUpdateSchema = z.looseObject({
  metadata: z.record(z.string(), z.unknown()).nullish(),
  ttl: noTtl,
});

export const threadCountSchema = threadSearchSchema.extend({
  values: z
    .record(z.string(), z.unknown())
    .nullish()
    .refine((values) => !values || Object.keys(values).length === 0, {
      message: 'Threads are not filtered by their state values here; filter on metadata or status',
    }),
});

export const threadPruneSchema = z.object({
  thread_ids: z.array(idSchema).min(1).max(MAX_PRUNE_THREADS),
  strategy: z.enum(['delete', 'keep_latest']).nullish(),
});

export const stateAtCheckpointSchema = z.looseObject({
  checkpoint: z.looseObject({
    checkpoint_id: idSchema,
    // The agents' state lives in the root graph: a subgraph's namespace names no state here.
    checkpoint_ns: z.string().max(0, { message: 'Only the root namespace ("") holds state here' }).nullish(),
  }),
});

/**
 * LangGraph's thread calls beyond create/get/search/delete/state/history: update a thread's metadata, count, the
 * state at a checkpoint, copy, prune. A thread the caller may not read answers as a missing one; changes are its owner's.
 * The graph state itself is written only by runs: `updateState` and `patchState` are refused.
 */
export function threadManageRoutes(runs: RunManager, store: RunLog): Hono<ServerEnv> {
  const stateAt = async (threadId: string, checkpointId: string, principal: ServerEnv['Variables']['principal']) => {
    const { agent, snapshot } = await runs.threadState(threadId, principal, checkpointId);
    // LangGraph answers an unknown checkpoint with an empty state; a client asking for one wants to know it is not there.
    if (!snapshot?.createdAt)
      throw new NotFoundError(
        'checkpoint',
        checkpointId,
        "List the thread's checkpoints with POST /threads/{thread_id}/history.",
      );
    return threadStateJson(agent, snapshot);
  };
  return new Hono<ServerEnv>()
    .post('/threads/count', async (c) => {
      const body = await readOptionalJson(c, threadCountSchema);
      assertMetadataWithin(body.metadata, requestLimits(c));
      return c.json((await matchingThreads(store, c.get('principal'), body)).length);
    })
    .post('/threads/prune', async (c) => {
      const body = await readJson(c, threadPruneSchema);
      if (body.strategy === 'keep_latest')
        throw new ValidationError('The prune strategy "keep_latest" is not served: checkpoints are kept whole.', {
          hint: 'Prune with strategy "delete" (the default), or keep the threads.',
        });
      const principal = c.get('principal');
      let pruned = 0;
      for (const threadId of new Set(body.thread_ids)) {
        // Only the caller's own threads go; another's (an admin's reading rights included) is passed over as absent.
        const thread = await store.getThread(threadId);
        if (!thread || thread.owner !== principal.id) continue;
        await runs.deleteThread(threadId, principal);
        pruned += 1;
      }
      return c.json({ pruned_count: pruned });
    })
    .patch('/threads/:threadId', async (c) => {
      const threadId = c.req.param('threadId');
      const principal = c.get('principal');
      const body = await readJson(c, threadUpdateSchema);
      assertMetadataWithin(body.metadata, requestLimits(c));
      const thread = await ownThread(store, threadId, principal);
      const metadata = { ...thread.metadata, ...body.metadata };
      assertMetadataWithin(metadata, requestLimits(c));
      const updated = await store.setThreadMetadata(threadId, principal.id, metadata);
      if (!updated) throw threadNotFound(threadId);
      const lastRun = (await store.listRuns(threadId, principal.id)).at(-1);
      return c.json(threadJson({ ...updated, ...(lastRun ? { lastStatus: lastRun.status } : {}) }));
    })
    .post('/threads/:threadId/copy', async (c) => {
      // A new thread of the caller's with the same agent, metadata and checkpoints (every branch): only the owner copies.
      const threadId = c.req.param('threadId');
      const principal = c.get('principal');
      const from = await ownThread(store, threadId, principal);
      const pending = (await store.listRuns(threadId, principal.id)).some(
        (run) => run.status === 'running' || run.status === 'pending',
      );
      if (pending) throw new ThreadBusyError(threadId);
      const agent = from.agent ? runs.agent(from.agent) : undefined;
      if (agent && !agent.copyCheckpoints)
        throw new ValidationError(`The agent ${JSON.stringify(agent.name)} keeps no checkpoints to copy.`, {
          hint: 'Start a new thread instead.',
        });
      const copy = await store.createThread({
        threadId: randomUUID(),
        owner: principal.id,
        metadata: from.metadata,
        ...(from.agent ? { agent: from.agent } : {}),
      });
      try {
        await agent?.copyCheckpoints?.(threadId, copy.threadId);
      } catch (error) {
        // No half copy is left: the new thread goes with whatever checkpoints it got.
        await runs.deleteThread(copy.threadId, principal).catch(() => undefined);
        throw error;
      }
      return c.json(threadJson(copy));
    })
    .get('/threads/:threadId/state/:checkpointId', async (c) => {
      const checkpointId = idSchema.safeParse(c.req.param('checkpointId'));
      if (!checkpointId.success)
        throw new ValidationError('Invalid checkpoint id.', { hint: checkpointId.error.issues[0]?.message ?? '' });
      return c.json(await stateAt(c.req.param('threadId'), checkpointId.data, c.get('principal')));
    })
    .post('/threads/:threadId/state/checkpoint', async (c) => {
      const body = await readJson(c, stateAtCheckpointSchema);
      return c.json(await stateAt(c.req.param('threadId'), body.checkpoint.checkpoint_id, c.get('principal')));
    })
    .on(['POST', 'PATCH'], '/threads/:threadId/state', async (c) => {
      // Who may not read the thread learns nothing (404); who may is told why the state cannot be written (403).
      const threadId = c.req.param('threadId');
      await readableThread(store, threadId, c.get('principal'));
      throw new ThreadStateReadOnlyError(threadId);
    });
}
