import { z } from 'zod';
import { memoryJson } from '../../routes/memory-routes.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

export const memoryListJson = z.object({ memories: z.array(memoryJson) }).strict();

export const memoryPaths = pathGroup(
  { name: 'Memories', description: "The key's user's own long-term memories; no other user's are ever read." },
  {
    '/v1/memories': {
      get: operation({
        id: 'listMemories',
        summary: 'List your memories',
        description: "The key's user's memories, oldest first.",
        access: 'key',
        responses: { 200: { description: 'The memories.', json: memoryListJson } },
      }),
    },
    '/v1/memories/{id}': {
      delete: operation({
        id: 'deleteMemory',
        summary: 'Delete one of your memories',
        access: 'key',
        params: [pathParam('id', 'The memory id.')],
        responses: {
          200: { description: 'Deleted.', json: z.object({ deleted: z.string() }).strict() },
          404: {
            description: 'You have no memory with this id (the same answer whether or not another user has one).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
  },
);
