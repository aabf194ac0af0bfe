import { Hono } from 'hono';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import type { CronService } from '../../runs/crons/cron-service.ts';
import type { ServerEnv } from '../server-env.ts';
import { cronJson, cronTickJson } from './langgraph/cron-body.ts';

const limitSchema = z.coerce.number().int().min(1).max(1000).default(50);

/** Evident's own view of a cron: the cron and its ticks (which run each tick started, or why it was skipped). */
export function cronHistoryRoutes(crons: CronService): Hono<ServerEnv> {
  return new Hono<ServerEnv>().get('/crons/:cronId/runs', async (c) => {
    const limit = limitSchema.safeParse(c.req.query('limit'));
    if (!limit.success)
      throw new ValidationError(`Invalid limit ${JSON.stringify(c.req.query('limit'))}.`, {
        hint: 'Use a whole number from 1 to 1000.',
      });
    const principal = c.get('principal');
    const cronId = c.req.param('cronId');
    const cron = await crons.get(principal, cronId);
    const ticks = await crons.history(principal, cronId, limit.data);
    return c.json({ cron: cronJson(cron), ticks: ticks.map(cronTickJson) });
  });
}
