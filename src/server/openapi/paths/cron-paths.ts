import { z } from 'zod';
import {
  cronCountSchema,
  cronCreateSchema,
  cronSearchSchema,
  cronUpdateSchema,
} from '../../routes/langgraph/cron-body.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

const cronJson = z
  .object({
    cron_id: z.string(),
    assistant_id: z.string(),
    thread_id: z.string().nullable().describe('The thread every tick continues; null: each tick runs on a new thread.'),
    user_id: z.string().describe('The owner: each tick runs as this user, with their permissions at the tick.'),
    schedule: z.string().describe('Cron syntax: 5 fields, or 6 with seconds first.'),
    timezone: z.string().describe('The IANA time zone the schedule is read in (UTC unless given).'),
    end_time: z.string().nullable().describe('No tick at or after this instant.'),
    enabled: z.boolean(),
    on_run_completed: z
      .enum(['keep', 'delete'])
      .describe("A stateless cron's thread after its run: kept (the default here), or deleted."),
    payload: z.record(z.string(), z.unknown()).describe('The run request each tick makes (input, config, metadata…).'),
    metadata: z.record(z.string(), z.unknown()),
    next_run_date: z.string().nullable().describe('The next tick; null when there is none.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict();

const tickJson = z
  .object({
    tick_at: z.string().describe('The scheduled instant.'),
    status: z.enum(['claimed', 'started', 'skipped', 'failed']),
    run_id: z.string().nullable().describe('The run the tick started.'),
    thread_id: z.string().nullable(),
    reason: z
      .string()
      .nullable()
      .describe(
        'Why a tick was skipped or failed: a code and a message (`owner_not_found`, `owner_not_allowed`, `thread_not_found`, `thread_busy`, `too_many_runs`, …).',
      ),
    claimed_by: z.string().describe('The server process that claimed the tick.'),
    claimed_at: z.string(),
    updated_at: z.string(),
  })
  .strict();

const cronIdParam = pathParam('cronId', 'The cron id.');
const notYours = {
  description: "No such cron of yours: another user's cron is answered as a missing one.",
  json: ERROR_SCHEMA_REF,
};
const refused = {
  description:
    'Invalid schedule, time zone, end time or run request; a schedule that ticks more often than `crons.minIntervalSeconds`; a payload over `crons.maxPayloadBytes`; more than `crons.maxPerUser` crons; or a principal that may not run crons (no stored user, or not in `crons.groups`).',
  json: ERROR_SCHEMA_REF,
};

export const cronPaths = pathGroup(
  {
    name: 'Crons',
    description:
      "Scheduled runs (LangGraph's `client.crons`). Each tick runs once across every server sharing the store, as the cron's owner with their permissions at the tick.",
  },
  {
    '/runs/crons': {
      post: operation({
        id: 'createCron',
        summary: 'Schedule a stateless run',
        description:
          'Each tick starts the run the body describes (every field that is not the cron’s own) on a new thread.',
        access: 'key',
        json: cronCreateSchema,
        responses: { 200: { description: 'The cron.', json: cronJson }, 400: refused },
      }),
    },
    '/threads/{threadId}/runs/crons': {
      post: operation({
        id: 'createThreadCron',
        summary: 'Schedule a run on one of your threads',
        description:
          'Each tick continues the thread; a tick finding it busy is skipped unless the payload says otherwise.',
        access: 'key',
        params: [pathParam('threadId', 'A thread of yours.')],
        json: cronCreateSchema,
        responses: {
          200: { description: 'The cron.', json: cronJson },
          400: refused,
          404: { description: 'No such thread of yours.', json: ERROR_SCHEMA_REF },
        },
      }),
    },
    '/runs/crons/search': {
      post: operation({
        id: 'searchCrons',
        summary: 'List your crons',
        description:
          "Filtered, sorted (`created_at` newest first by default) and paged; `select` keeps only the named fields. An admin's search covers every user's crons.",
        access: 'key',
        json: cronSearchSchema,
        responses: { 200: { description: 'The crons.', json: z.array(z.record(z.string(), z.unknown())) } },
      }),
    },
    '/runs/crons/count': {
      post: operation({
        id: 'countCrons',
        summary: 'Count your crons',
        description: "An admin's count covers every user's crons.",
        access: 'key',
        json: cronCountSchema,
        responses: { 200: { description: 'How many match.', json: z.number().int() } },
      }),
    },
    '/runs/crons/{cronId}': {
      patch: operation({
        id: 'updateCron',
        summary: 'Change one of your crons',
        description:
          'Absent fields stay; run fields replace those of the payload; a new schedule, time zone or end time, or re-enabling, counts the next tick from now.',
        access: 'key',
        params: [cronIdParam],
        json: cronUpdateSchema,
        responses: { 200: { description: 'The cron.', json: cronJson }, 400: refused, 404: notYours },
      }),
      delete: operation({
        id: 'deleteCron',
        summary: 'Delete one of your crons',
        description: 'With its history. Admins delete only their own.',
        access: 'key',
        params: [cronIdParam],
        responses: { 204: { description: 'Deleted.' }, 404: notYours },
      }),
    },
    '/v1/crons/{cronId}/runs': {
      get: operation({
        id: 'listCronRuns',
        summary: "A cron's tick history",
        description:
          'Newest first: the run each tick started, or why it was skipped. For the owner, or an admin. `crons.historyLimit` ticks are kept per cron.',
        access: 'key',
        params: [
          cronIdParam,
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Ticks to return (default 50, at most 1000).',
            schema: { type: 'integer' },
          },
        ],
        responses: {
          200: {
            description: 'The cron and its ticks.',
            json: z.object({ cron: cronJson, ticks: z.array(tickJson) }).strict(),
          },
          400: { description: 'An invalid limit.', json: ERROR_SCHEMA_REF },
          404: notYours,
        },
      }),
    },
  },
);
