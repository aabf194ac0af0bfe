import { z } from 'zod';
import { runBodySchema } from '../../routes/langgraph/run-body.ts';
import { cancelManySchema } from '../../routes/langgraph/run-cancel-routes.ts';
import { STREAM_MODES } from '../../sse.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, type OperationSpec } from '../operation.ts';
import type { ParameterObject } from '../openapi-types.ts';
import { langgraphRunJoinPathItems } from './langgraph-run-join-paths.ts';
import { runEventStream, runIdParam, runJson, runValuesJson, threadIdParam } from './langgraph-schemas.ts';

const notReadable = { description: 'No thread or run the key may read.', json: ERROR_SCHEMA_REF };

/** The three ways to start a run, each on a thread or thread-less (a new thread). */
function startOperations(threadPrefix: boolean): Record<string, { post: ReturnType<typeof operation> }> {
  const params: ParameterObject[] = threadPrefix ? [threadIdParam] : [];
  const base = threadPrefix ? '/threads/{threadId}/runs' : '/runs';
  const where = threadPrefix ? 'on the thread' : 'on a new thread';
  const idSuffix = threadPrefix ? 'OnThread' : '';
  const common: Pick<OperationSpec, 'access' | 'params' | 'json'> = { access: 'key', params, json: runBodySchema };
  const refused = { description: "The thread is another user's, or bound to another agent.", json: ERROR_SCHEMA_REF };
  const busy = {
    description: 'The thread has a run in progress or queued and `multitask_strategy` is `reject` (the default).',
    json: ERROR_SCHEMA_REF,
  };
  return {
    [base]: {
      post: operation({
        ...common,
        id: `createRun${idSuffix}`,
        summary: `Start a run ${where} in the background`,
        description:
          'Ask a question (`input`) or answer a pending approval (`command.resume`). `Content-Location` names the run, `Location` its stream. On a busy thread `multitask_strategy` decides: `reject` (409), `enqueue` (the run is `pending` until the runs before it end, on whichever server), `interrupt` (the running run is stopped, its checkpoints kept) or `rollback` (it is stopped and deleted with its checkpoints).',
        responses: {
          200: { description: 'The run, running (or pending, queued with `enqueue`).', json: runJson },
          403: refused,
          404: notReadable,
          409: busy,
        },
      }),
    },
    [`${base}/stream`]: {
      post: operation({
        ...common,
        id: `streamRun${idSuffix}`,
        summary: `Start a run ${where} and stream its events`,
        description:
          '`stream_mode` picks the modes (default `values`); `on_disconnect: cancel` cancels the run when the client goes away. The detail modes (`events`, `debug`, `checkpoints`, `tasks`, `tools`) are recorded only for a run whose creating request (this one, or `POST …/runs`) asks for them, and are bounded per run (`runs.detailStreamMaxBytes`).',
        responses: {
          200: { description: "The run's events.", content: runEventStream },
          403: refused,
          404: notReadable,
          409: busy,
        },
      }),
    },
    [`${base}/wait`]: {
      post: operation({
        ...common,
        id: `waitRun${idSuffix}`,
        summary: `Run ${where} and wait for its final values`,
        responses: {
          200: { description: 'The final values.', json: runValuesJson },
          403: refused,
          404: notReadable,
          409: busy,
        },
      }),
    },
  };
}

const onThread = startOperations(true);

export const langgraphRunPaths = pathGroup(
  {
    name: 'Runs (LangGraph API)',
    description:
      'Executions of an agent on a thread: background, streamed (SSE, replayable from the stored event log) or waited for; joined, listed and cancelled.',
  },
  {
    ...onThread,
    ...startOperations(false),
    ...langgraphRunJoinPathItems,
    '/threads/{threadId}/runs': {
      ...onThread['/threads/{threadId}/runs'],
      get: operation({
        id: 'listRuns',
        summary: "The thread's runs",
        description: 'Newest first.',
        access: 'key',
        params: [
          threadIdParam,
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'At most this many (default 10, at most 1000).',
            schema: { type: 'integer' },
          },
          { name: 'offset', in: 'query', required: false, description: 'Skip this many.', schema: { type: 'integer' } },
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Only runs of this LangGraph status.',
            schema: { type: 'string', enum: ['pending', 'running', 'success', 'error', 'interrupted'] },
          },
        ],
        responses: { 200: { description: 'The runs.', json: z.array(runJson) }, 404: notReadable },
      }),
    },
    '/threads/{threadId}/runs/{runId}': {
      get: operation({
        id: 'getRun',
        summary: 'One run',
        access: 'key',
        params: [threadIdParam, runIdParam],
        responses: { 200: { description: 'The run.', json: runJson }, 404: notReadable },
      }),
      delete: operation({
        id: 'deleteRun',
        summary: 'Delete a run that has ended',
        description:
          "The run's record and its events go; the thread's checkpoints stay (later runs rest on them). Only the thread's owner deletes.",
        access: 'key',
        params: [threadIdParam, runIdParam],
        responses: {
          204: { description: 'Deleted.' },
          404: notReadable,
          409: {
            description: 'The run is running or pending: cancel it first (`thread_busy`).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
    '/runs/cancel': {
      post: operation({
        id: 'cancelRuns',
        summary: "Cancel a thread's running and pending runs",
        description:
          'The runs `run_ids` names, or all of them; `status` narrows to `pending` or `running` ones. `action=rollback` also deletes them with their checkpoints. Queued runs are cancelled first.',
        access: 'key',
        json: cancelManySchema,
        params: [
          {
            name: 'action',
            in: 'query',
            required: false,
            description: '`interrupt` (the default) or `rollback`.',
            schema: { type: 'string', enum: ['interrupt', 'rollback'] },
          },
        ],
        responses: {
          204: { description: 'Cancelled.' },
          400: { description: 'An unknown `action`, or a malformed body (`invalid_input`).', json: ERROR_SCHEMA_REF },
          404: { description: 'No thread the key may read, or a run of `run_ids` not in it.', json: ERROR_SCHEMA_REF },
        },
      }),
    },
    '/threads/{threadId}/runs/{runId}/stream': {
      get: operation({
        id: 'joinRunStream',
        summary: "Stream a run's events, from the start or from `Last-Event-ID`",
        description: 'Replays the stored events, then follows the run live until its `end`.',
        access: 'key',
        params: [
          threadIdParam,
          runIdParam,
          {
            name: 'stream_mode',
            in: 'query',
            required: false,
            description:
              "Modes to stream (repeatable); default every mode the run recorded (its first `metadata` event's `stream_modes`).",
            schema: { type: 'string', enum: [...STREAM_MODES] },
          },
          {
            name: 'cancel_on_disconnect',
            in: 'query',
            required: false,
            description: '`true` or `1` cancels the run when the client goes away.',
            schema: { type: 'string' },
          },
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description: 'Resume after this event id.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: { description: "The run's events.", content: runEventStream },
          400: {
            description:
              'Unknown stream mode, or a detail mode (`events`, `debug`, `checkpoints`, `tasks`, `tools`) the run was created without (`invalid_input`, naming the modes it recorded).',
            json: ERROR_SCHEMA_REF,
          },
          404: notReadable,
        },
      }),
    },
    '/threads/{threadId}/runs/{runId}/join': {
      get: operation({
        id: 'joinRun',
        summary: "Wait for a run's final values",
        access: 'key',
        params: [threadIdParam, runIdParam],
        responses: { 200: { description: 'The final values.', json: runValuesJson }, 404: notReadable },
      }),
    },
    '/threads/{threadId}/runs/{runId}/cancel': {
      post: operation({
        id: 'cancelRun',
        summary: 'Cancel a running or pending run',
        description:
          "A pending (queued) run ends before it starts. `action=rollback` also deletes the run with the checkpoints its thread took since it started (LangGraph's cancel actions).",
        access: 'key',
        params: [
          threadIdParam,
          runIdParam,
          {
            name: 'action',
            in: 'query',
            required: false,
            description:
              '`interrupt` (the default): stop the run, keep its checkpoints; `rollback`: stop and delete it.',
            schema: { type: 'string', enum: ['interrupt', 'rollback'] },
          },
        ],
        responses: {
          200: { description: 'The run, cancelled.', json: runJson },
          204: { description: 'The run, rolled back: it is gone.' },
          400: { description: 'An unknown `action` (`invalid_input`).', json: ERROR_SCHEMA_REF },
          409: { description: 'The run is not running or pending (`run_not_running`).', json: ERROR_SCHEMA_REF },
          404: notReadable,
        },
      }),
    },
  },
);
