import { z } from 'zod';
import {
  assistantCountSchema,
  assistantCreateSchema,
  assistantLatestSchema,
  assistantPatchSchema,
  assistantSearchSchema,
  assistantVersionsSchema,
} from '../../routes/langgraph/assistant-body.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';
import { assistantJson } from './langgraph-schemas.ts';

const assistantId = pathParam(
  'id',
  "The assistant id: a stored assistant's UUID, or a built-in agent's name (`rag`, `react`, `controllable`) for its system assistant.",
);
const unknownAssistant = {
  description: 'No such assistant, or one the caller may not read (the same answer).',
  json: ERROR_SCHEMA_REF,
};
const readOnly = {
  description:
    'A system assistant (changed by no one), or a shared assistant the caller may read but not change (`assistant_read_only`).',
  json: ERROR_SCHEMA_REF,
};
const versionJson = assistantJson.omit({ updated_at: true });
const schemasJson = z.looseObject({
  graph_id: z.string(),
  input_schema: z.record(z.string(), z.unknown()).nullable(),
  output_schema: z.record(z.string(), z.unknown()).nullable(),
  state_schema: z.record(z.string(), z.unknown()).nullable(),
  config_schema: z.record(z.string(), z.unknown()).nullable(),
  context_schema: z.record(z.string(), z.unknown()).nullable(),
});

export const langgraphAssistantPaths = pathGroup(
  {
    name: 'Assistants (LangGraph API)',
    description:
      'An assistant is an agent (`graph_id`) plus its configuration, versioned, as `@langchain/langgraph-sdk` expects at the server root. The built-in agents are system assistants: listed for everyone, read-only. A stored assistant is owned by its creator and read as its `acl` says (owner, `user:`/`group:` entries, `public`; admins read all); only the owner or an admin changes it.',
  },
  {
    '/assistants': {
      post: operation({
        id: 'createAssistant',
        summary: 'Create an assistant',
        description:
          'Version 1 of a new assistant owned by the caller. `config.configurable` (or `context`) holds its settings: `model`, `retrieval`, `prompts`, `agent`, `approvals` (docs/agents.md); an unknown or invalid key is a 400 naming it. `acl` (or `metadata.acl`): who else may read and run it.',
        access: 'key',
        json: assistantCreateSchema,
        responses: {
          200: { description: 'The assistant.', json: assistantJson },
          409: { description: 'The assistant_id is taken (`assistant_exists`).', json: ERROR_SCHEMA_REF },
        },
      }),
    },
    '/assistants/search': {
      post: operation({
        id: 'searchAssistants',
        summary: 'Search the assistants',
        description:
          'The system assistants, then the stored assistants the caller may read, filtered (graph_id, exact name, metadata values), sorted and paged (limit at most 1000). A full page sets `X-Pagination-Next` to the next offset.',
        access: 'key',
        json: assistantSearchSchema,
        responses: { 200: { description: 'The assistants.', json: z.array(assistantJson) } },
      }),
    },
    '/assistants/count': {
      post: operation({
        id: 'countAssistants',
        summary: 'Count the assistants',
        description: 'How many assistants the caller may read match the filters.',
        access: 'key',
        json: assistantCountSchema,
        responses: { 200: { description: 'The count.', json: z.number().int() } },
      }),
    },
    '/assistants/{id}': {
      get: operation({
        id: 'getAssistant',
        summary: 'One assistant',
        description: 'Its latest version; `owner` and `acl` are shown to its owner and admins.',
        access: 'key',
        params: [assistantId],
        responses: { 200: { description: 'The assistant.', json: assistantJson }, 404: unknownAssistant },
      }),
      patch: operation({
        id: 'updateAssistant',
        summary: 'Update an assistant (a new version)',
        description:
          'Writes the next version and makes it the latest; fields left out are taken from the latest version. At most 100 versions are kept.',
        access: 'key',
        params: [assistantId],
        json: assistantPatchSchema,
        responses: {
          200: { description: 'The assistant at its new version.', json: assistantJson },
          403: readOnly,
          404: unknownAssistant,
        },
      }),
      delete: operation({
        id: 'deleteAssistant',
        summary: 'Delete an assistant',
        description:
          'Deletes every version; its threads and runs stay. `delete_threads=true` is refused (delete the threads first).',
        access: 'key',
        params: [
          assistantId,
          {
            name: 'delete_threads',
            in: 'query',
            required: false,
            description: 'Only `false` is supported.',
            schema: { type: 'boolean' },
          },
        ],
        responses: {
          204: { description: 'Deleted.' },
          400: { description: '`delete_threads=true`.', json: ERROR_SCHEMA_REF },
          403: readOnly,
          404: unknownAssistant,
        },
      }),
    },
    '/assistants/{id}/versions': {
      post: operation({
        id: 'listAssistantVersions',
        summary: "An assistant's versions",
        description: 'Newest first, filtered on metadata, paged; a system assistant has its one version.',
        access: 'key',
        params: [assistantId],
        json: assistantVersionsSchema,
        responses: { 200: { description: 'The versions.', json: z.array(versionJson) }, 404: unknownAssistant },
      }),
    },
    '/assistants/{id}/latest': {
      post: operation({
        id: 'setLatestAssistantVersion',
        summary: 'Set the latest version',
        description: 'Runs that name the assistant without a version apply this one from now on.',
        access: 'key',
        params: [assistantId],
        json: assistantLatestSchema,
        responses: {
          200: { description: 'The assistant at that version.', json: assistantJson },
          403: readOnly,
          404: {
            description: 'No such assistant or version (or one the caller may not read).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
    '/assistants/{id}/graph': {
      get: operation({
        id: 'getAssistantGraph',
        summary: "The assistant's graph",
        description: "Nodes and edges as LangGraph's drawable JSON.",
        access: 'key',
        params: [assistantId],
        responses: {
          200: {
            description: 'The graph.',
            json: z.looseObject({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }),
          },
          404: unknownAssistant,
        },
      }),
    },
    '/assistants/{id}/schemas': {
      get: operation({
        id: 'getAssistantSchemas',
        summary: "The assistant's schemas",
        description:
          "The run input's schema and the JSON schema of the assistant configuration (`config_schema`, `context_schema`).",
        access: 'key',
        params: [assistantId],
        responses: { 200: { description: 'The schemas.', json: schemasJson }, 404: unknownAssistant },
      }),
    },
    '/assistants/{id}/subgraphs': {
      get: operation({
        id: 'getAssistantSubgraphs',
        summary: "The assistant's subgraphs",
        description: "Evident's agents are single graphs: always `{}`.",
        access: 'key',
        params: [assistantId],
        responses: {
          200: { description: 'No subgraphs.', json: z.record(z.string(), z.unknown()) },
          404: unknownAssistant,
        },
      }),
    },
    '/assistants/{id}/subgraphs/{namespace}': {
      get: operation({
        id: 'getAssistantSubgraphsOf',
        summary: "The assistant's subgraphs under a namespace",
        description: 'Always `{}`.',
        access: 'key',
        params: [assistantId, pathParam('namespace', 'A subgraph namespace.')],
        responses: {
          200: { description: 'No subgraphs.', json: z.record(z.string(), z.unknown()) },
          404: unknownAssistant,
        },
      }),
    },
  },
);
