import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { RunManager } from '../../../runs/run-manager.ts';
import { readableThread } from '../../../runs/run-access.ts';
import { isEvidentError, ThreadStateReadOnlyError, ValidationError } from '../../../errors/index.ts';
import type { RunLog } from '../../../store/store.ts';
import { readJson, requestLimits } from '../../read-json.ts';
import { assertMetadataWithin } from '../../request-limits.ts';
import type { ServerEnv } from '../../server-env.ts';
import { threadJson, threadStateJson } from './api-json.ts';
import { identifierProblem, MAX_ID_CHARS } from '../../../domain/identifier.ts';

const metadataSchema = z.record(z.string(), z.unknown());

export const threadCreateSchema = z.looseObject({
  thread_id: z
    .string()
    .superRefine((id, context) => {
      // The one rule every stored identifier follows (domain/identifier.ts), whichever route creates it.
      const problem = identifierProblem(id);
      if (problem)
        context.addIssue({
          code: 'custom',
          message: `${problem}; use 1 to ${MAX_ID_CHARS} characters without control or bidirectional characters`,
        });
    })
    .nullish(),
  metadata: metadataSchema.nullish(),
  if_exists: z.enum(['raise', 'do_nothing']).nullish(),
});

export const threadSearchSchema = z.looseObject({
  metadata: metadataSchema.nullish(),
  status: z.enum(['idle', 'busy', 'interrupted', 'error']).nullish(),
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
});

export const historySchema = z.looseObject({ limit: z.number().int().min(1).max(1000).nullish() });

/** `?limit=` of GET …/history: 1–1000, 10 when absent. */
function historyLimitOf(query: string | undefined): number {
  if (query === undefined) return 10;
  const limit = Number(query);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new ValidationError(`Invalid limit ${JSON.stringify(query)}.`, {
      hint: 'Use a whole number from 1 to 1000.',
    });
  return limit;
}

/** An empty body reads as `{}`: the SDK posts none for a plain `threads.create()`. */
export async function readOptionalJson<T extends z.ZodType>(
  c: Parameters<typeof readJson>[0],
  schema: T,
): Promise<z.infer<T>> {
  return (
    c.req.header('content-length') === '0' || !c.req.header('content-type') ? schema.parse({}) : readJson(c, schema)
  ) as z.infer<T>;
}

const matches = (metadata: Record<string, unknown>, wanted: Record<string, unknown>) =>
  Object.entries(wanted).every(([key, value]) => JSON.stringify(metadata[key]) === JSON.stringify(value));

/** The principal's own threads (an admin's too: never others') that match a search's or a count's filters. */
export async function matchingThreads(
  store: Pick<RunLog, 'listThreads'>,
  principal: { id: string },
  filter: { metadata?: Record<string, unknown> | null | undefined; status?: string | null | undefined },
) {
  return (await store.listThreads(principal.id))
    .map((thread) => threadJson(thread))
    .filter(
      (thread) =>
        (!filter.metadata || matches(thread.metadata, filter.metadata)) &&
        (!filter.status || thread.status === filter.status),
    );
}

/** Threads: the key's own (an admin may read others' by id, never list them); state and checkpoint history. */
export function threadRoutes(runs: RunManager, store: RunLog): Hono<ServerEnv> {
  return new Hono<ServerEnv>()
    .post('/threads', async (c) => {
      const body = await readOptionalJson(c, threadCreateSchema);
      assertMetadataWithin(body.metadata, requestLimits(c));
      const principal = c.get('principal');
      const threadId = body.thread_id ?? randomUUID();
      // `supersteps` would write the new thread's graph state, which holds evidence: only runs write it.
      if (Array.isArray(body.supersteps) && body.supersteps.length > 0) throw new ThreadStateReadOnlyError(threadId);
      try {
        const thread = await store.createThread({ threadId, owner: principal.id, metadata: body.metadata ?? {} });
        return c.json(threadJson(thread));
      } catch (error) {
        if (!(isEvidentError(error) && error.code === 'thread_exists')) throw error;
        // An id taken by a thread this key may not read gets the 404 of every other route (nothing is created): a
        // 409 would tell that someone else uses it. The reader (its owner, or an admin) learns it exists.
        const thread = await readableThread(store, threadId, principal);
        if (body.if_exists !== 'do_nothing') throw error;
        return c.json(threadJson(thread));
      }
    })
    .post('/threads/search', async (c) => {
      const body = await readOptionalJson(c, threadSearchSchema);
      assertMetadataWithin(body.metadata, requestLimits(c));
      const offset = body.offset ?? 0;
      const threads = await matchingThreads(store, c.get('principal'), body);
      return c.json(threads.slice(offset, offset + (body.limit ?? 10)));
    })
    .get('/threads/:threadId', async (c) => {
      const { thread, agent, snapshot } = await runs.threadState(c.req.param('threadId'), c.get('principal'));
      const values = agent && snapshot?.createdAt ? agent.view(snapshot.values as Record<string, unknown>) : undefined;
      const lastRun = (await store.listRuns(thread.threadId, thread.owner)).at(-1);
      return c.json(
        threadJson({ ...thread, ...(lastRun ? { lastStatus: lastRun.status } : {}) }, values ? { values } : {}),
      );
    })
    .delete('/threads/:threadId', async (c) => {
      await runs.deleteThread(c.req.param('threadId'), c.get('principal'));
      return c.body(null, 204);
    })
    .get('/threads/:threadId/state', async (c) => {
      const { agent, snapshot } = await runs.threadState(c.req.param('threadId'), c.get('principal'));
      return c.json(threadStateJson(agent, snapshot));
    })
    .on(['GET', 'POST'], '/threads/:threadId/history', async (c) => {
      const limit =
        c.req.method === 'POST'
          ? ((await readOptionalJson(c, historySchema)).limit ?? 10)
          : historyLimitOf(c.req.query('limit'));
      const { agent, snapshots } = await runs.history(c.req.param('threadId'), c.get('principal'), limit);
      return c.json(snapshots.map((snapshot) => threadStateJson(agent, snapshot)));
    });
}
