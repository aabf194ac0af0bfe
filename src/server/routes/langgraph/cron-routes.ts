import { Hono } from 'hono';
import type { CronService } from '../../../runs/crons/cron-service.ts';
import { readJson, requestLimits } from '../../read-json.ts';
import type { ServerEnv } from '../../server-env.ts';
import {
  cronChangeOf,
  cronCountSchema,
  cronCreateSchema,
  cronInputOf,
  cronJson,
  cronSearchSchema,
  cronUpdateSchema,
  selectedCronJson,
} from './cron-body.ts';

/** An empty body reads as `{}` (a bare search). */
async function optionalJson<T>(c: Parameters<typeof readJson>[0], read: () => Promise<T>, empty: T): Promise<T> {
  return c.req.header('content-length') === '0' || !c.req.header('content-type') ? empty : read();
}

/**
 * Crons, the LangGraph API way (the SDK's `client.crons`): create (stateless, or on a thread of the caller's),
 * update, delete, search and count. A cron is its owner's; an admin's search and count cover every user's crons.
 */
export function cronRoutes(crons: CronService): Hono<ServerEnv> {
  return new Hono<ServerEnv>()
    .post('/runs/crons', async (c) => {
      const body = await readJson(c, cronCreateSchema);
      return c.json(cronJson(await crons.create(c.get('principal'), cronInputOf(body, null, requestLimits(c)))));
    })
    .post('/threads/:threadId/runs/crons', async (c) => {
      const body = await readJson(c, cronCreateSchema);
      const input = cronInputOf(body, c.req.param('threadId'), requestLimits(c));
      return c.json(cronJson(await crons.create(c.get('principal'), input)));
    })
    .post('/runs/crons/search', async (c) => {
      const body = await optionalJson(c, () => readJson(c, cronSearchSchema), cronSearchSchema.parse({}));
      const found = await crons.search(c.get('principal'), {
        ...(body.assistant_id ? { assistantId: body.assistant_id } : {}),
        ...(body.thread_id ? { threadId: body.thread_id } : {}),
        ...(body.enabled != null ? { enabled: body.enabled } : {}),
        ...(body.metadata ? { metadata: body.metadata } : {}),
        limit: body.limit ?? 10,
        offset: body.offset ?? 0,
        ...(body.sort_by ? { sortBy: body.sort_by } : {}),
        ...(body.sort_order ? { sortOrder: body.sort_order } : {}),
      });
      return c.json(found.map((cron) => selectedCronJson(cron, body.select)));
    })
    .post('/runs/crons/count', async (c) => {
      const body = await optionalJson(c, () => readJson(c, cronCountSchema), cronCountSchema.parse({}));
      return c.json(
        await crons.count(c.get('principal'), {
          ...(body.assistant_id ? { assistantId: body.assistant_id } : {}),
          ...(body.thread_id ? { threadId: body.thread_id } : {}),
          ...(body.metadata ? { metadata: body.metadata } : {}),
        }),
      );
    })
    .patch('/runs/crons/:cronId', async (c) => {
      const body = await readJson(c, cronUpdateSchema);
      const change = cronChangeOf(body, requestLimits(c));
      return c.json(cronJson(await crons.update(c.get('principal'), c.req.param('cronId'), change)));
    })
    .delete('/runs/crons/:cronId', async (c) => {
      await crons.delete(c.get('principal'), c.req.param('cronId'));
      return c.body(null, 204);
    });
}
