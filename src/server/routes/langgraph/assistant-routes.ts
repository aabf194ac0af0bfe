import { Hono } from 'hono';
import { z } from 'zod';
import { assistantSettingsSchema } from '../../../config/assistant-settings-schema.ts';
import type { AgentBoundsName } from '../../../config/agents-schema.ts';
import { isAdmin, type Principal } from '../../../domain/index.ts';
import { ValidationError } from '../../../errors/index.ts';
import type { AgentDefinition } from '../../../runs/agent-definition.ts';
import {
  SYSTEM_METADATA,
  type AssistantService,
  type AssistantVersionView,
  type AssistantView,
} from '../../../runs/assistant-service.ts';
import type { RunManager } from '../../../runs/run-manager.ts';
import type { AssistantRecord, AssistantVersionRecord } from '../../../store/store.ts';
import { readJson } from '../../read-json.ts';
import type { ServerEnv } from '../../server-env.ts';
import {
  assistantCountSchema,
  assistantCreateSchema,
  assistantLatestSchema,
  assistantPatchSchema,
  assistantSearchSchema,
  assistantVersionsSchema,
  filterOf,
} from './assistant-body.ts';

const BORN = new Date(0).toISOString();

/** A system assistant: a built-in agent as the server configures it, at version 1, for everyone. */
export const systemAssistantJson = (agent: AgentDefinition) => ({
  assistant_id: agent.name,
  graph_id: agent.name,
  name: agent.name,
  description: agent.description,
  config: {},
  context: {},
  metadata: { ...SYSTEM_METADATA },
  version: 1,
  created_at: BORN,
  updated_at: BORN,
});

const versionJson = (version: AssistantVersionRecord) => ({
  assistant_id: version.assistantId,
  graph_id: version.graphId,
  name: version.name,
  description: version.description,
  config: version.config,
  context: version.context,
  metadata: version.metadata,
  version: version.version,
  created_at: version.createdAt,
});

/** A stored assistant; its owner and ACL are shown to the owner and admins only. */
const storedJson = (record: AssistantRecord, reader: Principal) => ({
  ...versionJson(record),
  created_at: record.assistantCreatedAt,
  updated_at: record.updatedAt,
  ...(record.owner === reader.id || isAdmin(reader) ? { owner: record.owner, acl: record.acl } : {}),
});

const viewJson = (view: AssistantView, reader: Principal) =>
  view.kind === 'system' ? systemAssistantJson(view.agent) : storedJson(view.record, reader);

const versionViewJson = (view: AssistantVersionView) =>
  view.kind === 'system' ? systemAssistantJson(view.agent) : versionJson(view.record);

/** The JSON schemas of an assistant's graph, as LangGraph's `GET /assistants/{id}/schemas` gives them. */
function schemasJson(graphId: string) {
  const settings =
    graphId === 'rag' || graphId === 'react' || graphId === 'controllable'
      ? z.toJSONSchema(assistantSettingsSchema(graphId as AgentBoundsName), { io: 'input' })
      : null;
  const input = {
    type: 'object',
    properties: {
      messages: { type: 'array', items: { type: 'object' } },
      question: { type: 'string' },
    },
  };
  return {
    graph_id: graphId,
    input_schema: input,
    output_schema: null,
    state_schema: null,
    config_schema: settings,
    context_schema: settings,
  };
}

/**
 * LangGraph's assistants API: the built-in agents as read-only system assistants (their ids the agents' names), and
 * stored assistants — an agent plus its configuration, versioned — created, searched, updated, deleted as the
 * assistant service allows the caller (owner and ACL, read at the moment of use).
 */
export function assistantRoutes(runtime: { runs: RunManager; assistants: AssistantService }): Hono<ServerEnv> {
  const { assistants } = runtime;
  const graphOf = async (principal: Principal, assistantId: string): Promise<AgentDefinition> => {
    const view = await assistants.get(principal, assistantId);
    return view.kind === 'system' ? view.agent : runtime.runs.agent(view.record.graphId);
  };
  return new Hono<ServerEnv>()
    .post('/assistants', async (c) => {
      const principal = c.get('principal');
      const record = await assistants.create(principal, await readJson(c, assistantCreateSchema));
      return c.json(storedJson(record, principal));
    })
    .post('/assistants/search', async (c) => {
      const principal = c.get('principal');
      const body = await readJson(c, assistantSearchSchema);
      const limit = body.limit ?? 10;
      const offset = body.offset ?? 0;
      const found = await assistants.search(principal, {
        ...filterOf(body),
        limit,
        offset,
        ...(body.sort_by ? { sortBy: body.sort_by } : {}),
        ...(body.sort_order ? { sortOrder: body.sort_order } : {}),
      });
      const select = body.select;
      const list = found.map((view) => {
        const json: Record<string, unknown> = viewJson(view, principal);
        return select
          ? Object.fromEntries(Object.entries(json).filter(([key]) => (select as string[]).includes(key)))
          : json;
      });
      if (list.length === limit) c.header('X-Pagination-Next', String(offset + limit));
      return c.json(list);
    })
    .post('/assistants/count', async (c) =>
      c.json(await assistants.count(c.get('principal'), filterOf(await readJson(c, assistantCountSchema)))),
    )
    .get('/assistants/:id', async (c) => {
      const principal = c.get('principal');
      return c.json(viewJson(await assistants.get(principal, c.req.param('id')), principal));
    })
    .patch('/assistants/:id', async (c) => {
      const principal = c.get('principal');
      const body = await readJson(c, assistantPatchSchema);
      return c.json(storedJson(await assistants.update(principal, c.req.param('id'), body), principal));
    })
    .delete('/assistants/:id', async (c) => {
      if (c.req.query('delete_threads') === 'true')
        throw new ValidationError('delete_threads is not supported: an assistant is deleted, its threads stay.', {
          hint: 'Delete the threads (DELETE /threads/{id}) first, then the assistant without delete_threads.',
        });
      await assistants.delete(c.get('principal'), c.req.param('id'));
      return c.body(null, 204);
    })
    .post('/assistants/:id/versions', async (c) => {
      const body = await readJson(c, assistantVersionsSchema);
      const { metadata } = filterOf(body);
      const versions = await assistants.versions(c.get('principal'), c.req.param('id'), {
        limit: body.limit ?? 10,
        offset: body.offset ?? 0,
        ...(metadata ? { metadata } : {}),
      });
      return c.json(versions.map(versionViewJson));
    })
    .post('/assistants/:id/latest', async (c) => {
      const principal = c.get('principal');
      const { version } = await readJson(c, assistantLatestSchema);
      return c.json(storedJson(await assistants.setLatest(principal, c.req.param('id'), version), principal));
    })
    .get('/assistants/:id/graph', async (c) => {
      const agent = await graphOf(c.get('principal'), c.req.param('id'));
      return c.json((await agent.graph.getGraphAsync()).toJSON() as object);
    })
    .get('/assistants/:id/schemas', async (c) => {
      const agent = await graphOf(c.get('principal'), c.req.param('id'));
      return c.json(schemasJson(agent.name));
    })
    .get('/assistants/:id/subgraphs', async (c) => {
      await graphOf(c.get('principal'), c.req.param('id'));
      // Evident's agents are single graphs: no node runs a subgraph.
      return c.json({});
    })
    .get('/assistants/:id/subgraphs/:namespace', async (c) => {
      await graphOf(c.get('principal'), c.req.param('id'));
      return c.json({});
    });
}
