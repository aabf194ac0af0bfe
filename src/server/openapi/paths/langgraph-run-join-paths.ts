import { z } from 'zod';
import { runBatchSchema } from '../../routes/langgraph/run-batch-routes.ts';
import { THREAD_STREAM_MODES } from '../../routes/langgraph/thread-event-stream.ts';
import { STREAM_MODES } from '../../sse.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation } from '../operation.ts';
import type { MediaTypeObject } from '../openapi-types.ts';
import { runEventStream, runIdParam, runJson, threadIdParam } from './langgraph-schemas.ts';

const lastEventIdHeader = (description: string) => ({
  name: 'Last-Event-ID',
  in: 'header' as const,
  required: false,
  description,
  schema: { type: 'string' as const },
});

const threadEventStream: Record<string, MediaTypeObject> = {
  'text/event-stream': {
    schema: {
      type: 'string',
      description:
        "The thread's runs' events, one run after the other, each run's as its own stream carries them (`metadata` first, `end` last); each event's `id` is `<run_id>:<seq>`. Comment lines are heartbeats. The stream stays open (waiting for the thread's next run) until the client closes it.",
    },
  },
};

/** The run calls of the SDK that name no thread run path: a batch of stateless runs, a run's join by its id, a thread's join. */
export const langgraphRunJoinPathItems = {
  '/runs/batch': {
    post: operation({
      id: 'createRunBatch',
      summary: 'Start several stateless runs in the background',
      description:
        'An array of run payloads, each the body of `POST /runs` (each run on a new thread), at most `runs.maxConcurrentPerUser` of them. Every payload is read before any run starts: one invalid payload refuses the whole batch (400 naming its index) and starts nothing. A start refused afterwards (an unknown assistant, a refused webhook, `too_many_runs`) cancels the runs the batch had started and answers that refusal.',
      access: 'key',
      json: runBatchSchema,
      responses: {
        200: { description: 'The runs, in the order asked, running.', json: z.array(runJson) },
        404: { description: 'A payload names no assistant the key may use.', json: ERROR_SCHEMA_REF },
        429: { description: 'Too many runs at once (`too_many_runs`, with `Retry-After`).', json: ERROR_SCHEMA_REF },
      },
    }),
  },
  '/runs/{runId}/stream': {
    get: operation({
      id: 'joinRunStreamById',
      summary: "Stream a run's events found by its id alone, from the start or from `Last-Event-ID`",
      description:
        "The same stream as `GET /threads/{threadId}/runs/{runId}/stream` (same query, same replay), for a key that may read the run's thread. `Location` names that thread-scoped stream, where the SDK reconnects.",
      access: 'key',
      params: [
        runIdParam,
        {
          name: 'stream_mode',
          in: 'query',
          required: false,
          description: 'Modes to stream (repeatable); default every mode the run recorded.',
          schema: { type: 'string', enum: [...STREAM_MODES] },
        },
        {
          name: 'cancel_on_disconnect',
          in: 'query',
          required: false,
          description: '`true` or `1` cancels the run when the client goes away.',
          schema: { type: 'string' },
        },
        lastEventIdHeader('Resume after this event id.'),
      ],
      responses: {
        200: { description: "The run's events.", content: runEventStream },
        400: { description: 'Unknown stream mode, or a detail mode the run did not record.', json: ERROR_SCHEMA_REF },
        404: { description: 'No run the key may read (`not_found`, as for an id no run has).', json: ERROR_SCHEMA_REF },
      },
    }),
  },
  '/threads/{threadId}/stream': {
    get: operation({
      id: 'joinThreadStream',
      summary: "Stream a thread's runs as they come",
      description:
        "Starts at the thread's current run (the first not ended, from its first event) or waits for the next, then follows each next run. The reader's access is read again before each run: one who lost the thread gets an `error` event and the stream ends.",
      access: 'key',
      params: [
        threadIdParam,
        {
          name: 'stream_mode',
          in: 'query',
          required: false,
          description:
            "`run_modes` (default: every event of each run), `lifecycle` (each run's `metadata`, `error` and `end`), `state_update` (its `values`); repeatable.",
          schema: { type: 'string', enum: [...THREAD_STREAM_MODES] },
        },
        lastEventIdHeader(
          "Resume right after this event (`<run_id>:<seq>`); `-` replays from the thread's first run. An id of no run of the thread starts at the current run.",
        ),
      ],
      responses: {
        200: { description: "The thread's runs' events.", content: threadEventStream },
        400: { description: 'Unknown thread stream mode (`invalid_input`).', json: ERROR_SCHEMA_REF },
        404: { description: 'No thread the key may read.', json: ERROR_SCHEMA_REF },
      },
    }),
  },
};
