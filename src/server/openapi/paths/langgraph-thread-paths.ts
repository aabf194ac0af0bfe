import { z } from 'zod';
import { historySchema, threadCreateSchema, threadSearchSchema } from '../../routes/langgraph/thread-routes.ts';
import {
  stateAtCheckpointSchema,
  threadCountSchema,
  threadPruneSchema,
  threadUpdateSchema,
} from '../../routes/langgraph/thread-manage-routes.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup } from '../operation.ts';
import { threadIdParam, threadJson, threadStateJson } from './langgraph-schemas.ts';

const notReadable = {
  description: "No thread the key may read (another user's looks the same as a missing one).",
  json: ERROR_SCHEMA_REF,
};
const stateReadOnly = {
  description:
    'The graph state is written only by runs (`thread_state_read_only`): it holds the evidence and citations answers are checked against. Start a run, or fork with `checkpoint_id`.',
  json: ERROR_SCHEMA_REF,
};
const checkpointParam = {
  name: 'checkpointId',
  in: 'path' as const,
  required: true,
  description: 'A checkpoint of the thread (from its history).',
  schema: { type: 'string' as const },
};
const stateAtResponses = {
  200: { description: 'The state at that checkpoint, as the reader may see it today.', json: threadStateJson },
  404: {
    description: 'No thread the key may read, or no such checkpoint of it.',
    json: ERROR_SCHEMA_REF,
  },
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
          403: {
            description:
              '`supersteps` given (`thread_state_read_only`): the state is written only by runs, so none is created.',
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
    '/threads/count': {
      post: operation({
        id: 'countThreads',
        summary: 'Count your threads',
        description:
          'How many of your threads match the metadata and status filters of /threads/search (an admin counts their own). Filtering on state `values` is refused (400).',
        access: 'key',
        json: threadCountSchema,
        responses: { 200: { description: 'The number of threads.', json: z.number().int() } },
      }),
    },
    '/threads/prune': {
      post: operation({
        id: 'pruneThreads',
        summary: 'Delete several of your threads',
        description:
          'Deletes the listed threads that are yours (at most 1000 ids); any other id is passed over as absent. Strategy `delete` only: `keep_latest` is refused (400).',
        access: 'key',
        json: threadPruneSchema,
        responses: {
          200: { description: 'How many threads were deleted.', json: z.object({ pruned_count: z.number().int() }) },
          409: { description: 'A listed thread has a run in progress (`thread_busy`).', json: ERROR_SCHEMA_REF },
        },
      }),
    },
    '/threads/{threadId}': {
      patch: operation({
        id: 'updateThread',
        summary: "Update your thread's metadata",
        description:
          "Merges `metadata` into the thread's (top-level keys replaced), within the metadata bounds. Only the owner. `ttl` is refused: threads do not expire.",
        access: 'key',
        params: [threadIdParam],
        json: threadUpdateSchema,
        responses: { 200: { description: 'The thread.', json: threadJson }, 404: notReadable },
      }),
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
      post: operation({
        id: 'updateThreadState',
        refused: true,
        summary: 'Write the state (refused)',
        description:
          "LangGraph's `updateState`. Refused for a thread you may read: a written value would be trusted as evidence.",
        access: 'key',
        params: [threadIdParam],
        responses: { 403: stateReadOnly, 404: notReadable },
      }),
      patch: operation({
        id: 'patchThreadState',
        refused: true,
        summary: "Write the state's metadata (refused)",
        description: "LangGraph's `patchState`, refused as `updateState` is.",
        access: 'key',
        params: [threadIdParam],
        responses: { 403: stateReadOnly, 404: notReadable },
      }),
    },
    '/threads/{threadId}/copy': {
      post: operation({
        id: 'copyThread',
        summary: 'Copy your thread',
        description:
          'A new thread of yours with the same agent, metadata and checkpoints (every branch, with pending interrupts); it goes on on its own. Only the owner copies; not while a run of it is running or queued.',
        access: 'key',
        params: [threadIdParam],
        responses: {
          200: { description: 'The new thread.', json: threadJson },
          404: notReadable,
          409: { description: 'A run of the thread is running or queued (`thread_busy`).', json: ERROR_SCHEMA_REF },
        },
      }),
    },
    '/threads/{threadId}/state/{checkpointId}': {
      get: operation({
        id: 'getThreadStateAt',
        summary: 'The state at a checkpoint',
        access: 'key',
        params: [threadIdParam, checkpointParam],
        responses: stateAtResponses,
      }),
    },
    '/threads/{threadId}/state/checkpoint': {
      post: operation({
        id: 'postThreadStateAt',
        summary: 'The state at a checkpoint (SDK form)',
        description: '`checkpoint.checkpoint_id` names it; `checkpoint_ns` must be empty (the root graph).',
        access: 'key',
        params: [threadIdParam],
        json: stateAtCheckpointSchema,
        responses: stateAtResponses,
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
