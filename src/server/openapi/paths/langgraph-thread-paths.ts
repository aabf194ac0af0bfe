import { z } from 'zod';
import { historySchema, threadCreateSchema, threadSearchSchema } from '../../routes/langgraph/thread-routes.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup } from '../operation.ts';
import { threadIdParam, threadJson, threadStateJson } from './langgraph-schemas.ts';

const notReadable = {
  description: "No thread the key may read (another user's looks the same as a missing one).",
  json: ERROR_SCHEMA_REF,
};
const historyResponse = { description: 'Checkpoints, newest first.', json: z.array(threadStateJson) };

export const langgraphThreadPaths = pathGroup(
  {
    name: 'Threads (LangGraph API)',
    description:
      'Conversations: checkpointed per thread and owned by the user who started them (an admin may read any by id).',
  },
  {
    '/threads': {
      post: operation({
        id: 'createThread',
        summary: 'Create a thread',
        description:
          'An empty body creates one with a new id. `if_exists: do_nothing` returns an existing thread of yours.',
        access: 'key',
        json: threadCreateSchema,
        responses: {
          200: { description: 'The thread.', json: threadJson },
          404: {
            description:
              'The id is taken by a thread the key may not read: answered as every route answers for it, and nothing is created.',
            json: ERROR_SCHEMA_REF,
          },
          409: {
            description: 'The id is taken by a thread the key may read (`thread_exists`).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
    '/threads/search': {
      post: operation({
        id: 'searchThreads',
        summary: 'List your threads',
        description: 'Most recently updated first, filtered by metadata and status.',
        access: 'key',
        json: threadSearchSchema,
        responses: { 200: { description: 'The threads.', json: z.array(threadJson) } },
      }),
    },
    '/threads/{threadId}': {
      get: operation({
        id: 'getThread',
        summary: 'One thread, with its current values',
        access: 'key',
        params: [threadIdParam],
        responses: { 200: { description: 'The thread.', json: threadJson }, 404: notReadable },
      }),
      delete: operation({
        id: 'deleteThread',
        summary: 'Delete a thread',
        description: 'Removes the thread with its runs, events and checkpoints.',
        access: 'key',
        params: [threadIdParam],
        responses: { 204: { description: 'Deleted.' }, 404: notReadable },
      }),
    },
    '/threads/{threadId}/state': {
      get: operation({
        id: 'getThreadState',
        summary: "The thread's latest checkpoint",
        access: 'key',
        params: [threadIdParam],
        responses: { 200: { description: 'The state.', json: threadStateJson }, 404: notReadable },
      }),
    },
    '/threads/{threadId}/history': {
      get: operation({
        id: 'getThreadHistory',
        summary: "The thread's checkpoints",
        access: 'key',
        params: [
          threadIdParam,
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'At most this many (default 10).',
            schema: { type: 'integer' },
          },
        ],
        responses: { 200: historyResponse, 404: notReadable },
      }),
      post: operation({
        id: 'searchThreadHistory',
        summary: "The thread's checkpoints (SDK form)",
        access: 'key',
        params: [threadIdParam],
        json: historySchema,
        responses: { 200: historyResponse, 404: notReadable },
      }),
    },
  },
);
