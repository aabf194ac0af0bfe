import { z } from 'zod';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';
import { assistantJson } from './langgraph-schemas.ts';

const assistantId = pathParam('id', "The assistant id: an agent's name (`rag`, …).");
const unknownAssistant = { description: 'No such assistant.', json: ERROR_SCHEMA_REF };

export const langgraphAssistantPaths = pathGroup(
  {
    name: 'Assistants (LangGraph API)',
    description: 'One assistant per agent, as `@langchain/langgraph-sdk` expects them at the server root.',
  },
  {
    '/assistants/search': {
      post: operation({
        id: 'searchAssistants',
        summary: 'List the assistants',
        description: "Every agent this server runs; the request body (the SDK's filters) is ignored.",
        access: 'key',
        responses: { 200: { description: 'The assistants.', json: z.array(assistantJson) } },
      }),
    },
    '/assistants/{id}': {
      get: operation({
        id: 'getAssistant',
        summary: 'One assistant',
        access: 'key',
        params: [assistantId],
        responses: { 200: { description: 'The assistant.', json: assistantJson }, 404: unknownAssistant },
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
  },
);
