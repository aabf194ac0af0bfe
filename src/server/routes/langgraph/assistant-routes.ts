import { Hono } from 'hono';
import type { RunManager } from '../../../runs/run-manager.ts';
import type { ServerEnv } from '../../server-env.ts';
import { assistantJson } from './api-json.ts';

/** One assistant per agent, addressed by the agent's name; their graphs as LangGraph's drawable JSON. */
export function assistantRoutes(runs: RunManager): Hono<ServerEnv> {
  return new Hono<ServerEnv>()
    .post('/assistants/search', (c) => c.json([...runs.agents.values()].map(assistantJson)))
    .get('/assistants/:id', (c) => c.json(assistantJson(runs.agent(c.req.param('id')))))
    .get('/assistants/:id/graph', async (c) =>
      c.json((await runs.agent(c.req.param('id')).graph.getGraphAsync()).toJSON() as object),
    );
}
