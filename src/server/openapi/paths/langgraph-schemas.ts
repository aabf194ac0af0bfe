import { z } from 'zod';
import { STREAM_MODES } from '../../sse.ts';
import { pathParam } from '../operation.ts';
import type { MediaTypeObject } from '../openapi-types.ts';

/** Response shapes of the LangGraph-compatible API: LangGraph's own fields (clients may read more than listed). */
const metadata = z.record(z.string(), z.unknown());

export const assistantJson = z.looseObject({
  assistant_id: z
    .string()
    .describe("A stored assistant's UUID, or a built-in agent's name (`rag`, …) for its system assistant."),
  graph_id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  config: z.record(z.string(), z.unknown()),
  metadata,
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const threadJson = z.looseObject({
  thread_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  metadata,
  status: z.enum(['idle', 'busy', 'interrupted', 'error']),
  values: z.record(z.string(), z.unknown()).optional(),
});

const checkpoint = z
  .object({ thread_id: z.string().nullable(), checkpoint_ns: z.string(), checkpoint_id: z.string().nullable() })
  .nullable();

export const threadStateJson = z.looseObject({
  values: z
    .record(z.string(), z.unknown())
    .describe("The agent's view of its state; `__interrupt__` while it waits for an approval."),
  next: z.array(z.string()),
  tasks: z.array(z.record(z.string(), z.unknown())),
  interrupts: z.array(z.unknown()),
  checkpoint,
  parent_checkpoint: checkpoint,
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string().nullable(),
});

export const runJson = z.looseObject({
  run_id: z.string(),
  thread_id: z.string(),
  assistant_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.enum(['pending', 'running', 'success', 'error', 'interrupted', 'timeout']),
  metadata,
  multitask_strategy: z.enum(['reject', 'enqueue', 'interrupt', 'rollback']),
  outcome: z
    .string()
    .describe(
      "Evident's own outcome: `answered`, `refused`, `failed`, `interrupted`, `cancelled`, `running`, or `pending` (queued).",
    ),
  question: z.string(),
  error: z.string().optional(),
  duration_ms: z.number().optional(),
});

export const runValuesJson = z
  .record(z.string(), z.unknown())
  .describe(
    "The thread's values once the run ended (the answer contract under the agent's view); `__error__` when it failed or was cancelled.",
  );

export const threadIdParam = pathParam('threadId', 'The thread id.');
export const runIdParam = pathParam('runId', 'The run id.');

/** A run's events as LangGraph streams them; each carries its sequence number as `id`, for `Last-Event-ID`. */
export const runEventStream: Record<string, MediaTypeObject> = {
  'text/event-stream': {
    schema: {
      type: 'string',
      description: `Server-sent events named by mode (${STREAM_MODES.join(', ')}), framed by \`metadata\` (first, its \`stream_modes\` naming what the run records), \`error\` and \`end\` (last). \`messages-tuple\` streams the \`messages\` events. Each event's \`id\` is its sequence number: reconnect with \`Last-Event-ID\` to resume. Comment lines are heartbeats.`,
    },
  },
};
