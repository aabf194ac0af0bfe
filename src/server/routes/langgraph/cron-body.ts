import { z } from 'zod';
import type { LimitsConfig } from '../../../config/index.ts';
import { ValidationError } from '../../../errors/index.ts';
import type { CronChange, CronInput } from '../../../runs/crons/cron-service.ts';
import { CRON_SORT_FIELDS, type CronRecord, type CronTickRecord } from '../../../store/store.ts';
import { assertMetadataWithin } from '../../request-limits.ts';
import { runActionOf, runBodySchema } from './run-body.ts';

const cronPolicy = z.enum(['keep', 'delete']);
const idSchema = z.string().min(1).max(512);
const metadataSchema = z.record(z.string(), z.unknown());

/** The fields of a cron body that describe the cron; every other field is the run request each tick makes. */
const CRON_FIELDS = [
  'assistant_id',
  'thread_id',
  'schedule',
  'timezone',
  'end_time',
  'enabled',
  'on_run_completed',
] as const;

/** `POST /runs/crons` and `POST /threads/{id}/runs/crons`, as the SDK's `crons.create` / `createForThread` send them. */
export const cronCreateSchema = z.looseObject({
  assistant_id: idSchema,
  schedule: z.string().min(1).max(256),
  timezone: z.string().min(1).max(64).nullish(),
  end_time: z.string().min(1).max(64).nullish(),
  enabled: z.boolean().nullish(),
  on_run_completed: cronPolicy.nullish(),
  metadata: metadataSchema.nullish(),
});
export type CronCreateBody = z.infer<typeof cronCreateSchema>;

/** `PATCH /runs/crons/{id}` (`crons.update`): absent fields stay; `end_time: null` clears the end time. */
export const cronUpdateSchema = z.looseObject({
  schedule: z.string().min(1).max(256).nullish(),
  timezone: z.string().min(1).max(64).nullish(),
  end_time: z.string().min(1).max(64).nullable().optional(),
  enabled: z.boolean().nullish(),
  on_run_completed: cronPolicy.nullish(),
  metadata: metadataSchema.nullish(),
});
export type CronUpdateBody = z.infer<typeof cronUpdateSchema>;

const metadataFilter = z
  .record(z.string().max(128), z.union([z.string().max(512), z.number(), z.boolean(), z.null()]))
  .nullish();

export const CRON_SELECT_FIELDS = [
  'cron_id',
  'assistant_id',
  'thread_id',
  'end_time',
  'schedule',
  'created_at',
  'updated_at',
  'user_id',
  'payload',
  'next_run_date',
  'metadata',
  'now',
  'timezone',
  'enabled',
  'on_run_completed',
] as const;

/** `POST /runs/crons/search` (`crons.search`). */
export const cronSearchSchema = z.looseObject({
  assistant_id: idSchema.nullish(),
  thread_id: idSchema.nullish(),
  enabled: z.boolean().nullish(),
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
  sort_by: z.enum(CRON_SORT_FIELDS).nullish(),
  sort_order: z.enum(['asc', 'desc']).nullish(),
  select: z.array(z.enum(CRON_SELECT_FIELDS)).max(CRON_SELECT_FIELDS.length).nullish(),
  metadata: metadataFilter,
});
export type CronSearchBody = z.infer<typeof cronSearchSchema>;

/** `POST /runs/crons/count` (`crons.count`). */
export const cronCountSchema = z.looseObject({
  assistant_id: idSchema.nullish(),
  thread_id: idSchema.nullish(),
  metadata: metadataFilter,
});

/** The run request of a cron body: every field that is not the cron's own, nulls dropped (the SDK sends them). */
function payloadOf(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).filter(
      ([key, value]) => value !== null && value !== undefined && !(CRON_FIELDS as readonly string[]).includes(key),
    ),
  );
}

/**
 * Whether a tick could start this run: the payload read as a run body must ask a question (a cron neither resumes an
 * approval nor replays a checkpoint) within the request limits.
 */
export function checkCronPayload(assistantId: string, payload: Record<string, unknown>, limits: LimitsConfig): void {
  const parsed = runBodySchema.safeParse({ ...payload, assistant_id: assistantId });
  if (!parsed.success)
    throw new ValidationError(`The cron's run request is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}.`, {
      hint: 'Send input: {"messages": [{"role": "user", "content": "…"}]} as a run takes it.',
    });
  const action = runActionOf(parsed.data, limits);
  if (action.kind !== 'ask')
    throw new ValidationError(
      'A cron asks a question at each tick; it cannot resume an approval or replay a checkpoint.',
      {
        hint: 'Send input (a question) and no command or checkpoint.',
      },
    );
}

export function cronInputOf(body: CronCreateBody, threadId: string | null, limits: LimitsConfig): CronInput {
  assertMetadataWithin(body.metadata, limits);
  return {
    assistantId: body.assistant_id,
    threadId,
    schedule: body.schedule,
    ...(body.timezone ? { timezone: body.timezone } : {}),
    ...(body.end_time ? { endTime: body.end_time } : {}),
    ...(body.enabled != null ? { enabled: body.enabled } : {}),
    ...(body.on_run_completed ? { onRunCompleted: body.on_run_completed } : {}),
    payload: payloadOf(body),
    ...(body.metadata ? { metadata: body.metadata } : {}),
  };
}

export function cronChangeOf(body: CronUpdateBody, limits: LimitsConfig): CronChange {
  assertMetadataWithin(body.metadata, limits);
  const payload = payloadOf(body);
  return {
    ...(body.schedule ? { schedule: body.schedule } : {}),
    ...(body.timezone ? { timezone: body.timezone } : {}),
    ...(body.end_time !== undefined ? { endTime: body.end_time } : {}),
    ...(body.enabled != null ? { enabled: body.enabled } : {}),
    ...(body.on_run_completed ? { onRunCompleted: body.on_run_completed } : {}),
    ...(body.metadata ? { metadata: body.metadata } : {}),
    ...(Object.keys(payload).length > 0 ? { payload } : {}),
  };
}

/** A cron as the LangGraph API shows it (the SDK's `Cron`). */
export const cronJson = (cron: CronRecord) => ({
  cron_id: cron.cronId,
  assistant_id: cron.assistantId,
  thread_id: cron.threadId,
  user_id: cron.owner,
  schedule: cron.schedule,
  timezone: cron.timezone,
  end_time: cron.endTime,
  enabled: cron.enabled,
  on_run_completed: cron.onRunCompleted,
  payload: cron.payload,
  metadata: cron.metadata,
  next_run_date: cron.nextRunAt,
  created_at: cron.createdAt,
  updated_at: cron.updatedAt,
});

/** The cron with only the `select`ed fields (all without `select`); `now` is the server's time. */
export function selectedCronJson(cron: CronRecord, select: readonly string[] | null | undefined) {
  const json: Record<string, unknown> = cronJson(cron);
  if (!select || select.length === 0) return json;
  const now = new Date().toISOString();
  return Object.fromEntries(select.map((field) => [field, field === 'now' ? now : json[field]]));
}

/** A tick of a cron's history. */
export const cronTickJson = (tick: CronTickRecord) => ({
  tick_at: tick.tickAt,
  status: tick.status,
  run_id: tick.runId ?? null,
  thread_id: tick.threadId ?? null,
  reason: tick.reason ?? null,
  claimed_by: tick.claimedBy,
  claimed_at: tick.claimedAt,
  updated_at: tick.updatedAt,
});
