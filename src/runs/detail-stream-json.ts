import { isBaseMessage } from '@langchain/core/messages';
import type { DetailStreamMode } from './detail-stream-modes.ts';
import { messageJson } from './stream-json.ts';

/** How deep a detail chunk's JSON goes; deeper values are written as a marker (no state of ours nests this deep). */
const MAX_DEPTH = 48;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Plain = Record<string, Json>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A value from inside LangGraph (a state, a task's input, a callback's payload) as plain JSON, the way the LangGraph
 * API sends it: chat messages as `{type, id, content, tool_calls}`, LangChain objects as their fields, documents as
 * `{page_content, metadata}`, dates as ISO text, errors as `{name, message}`; functions, symbols and undefined
 * fields are left out; a cycle or an absurd depth becomes a marker rather than a crash.
 */
export function plainJson(value: unknown, depth = 0, seen = new WeakSet<object>()): Json | undefined {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'function':
    case 'symbol':
      return undefined;
  }
  const object = value as object;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (seen.has(object)) return '[circular]';
  seen.add(object);
  try {
    if (isBaseMessage(object)) return plainJson(messageJson(object), depth + 1, seen);
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
    if (object instanceof Error) return { name: object.name, message: object.message };
    if (Array.isArray(object)) return object.map((item) => plainJson(item, depth + 1, seen) ?? null);
    if (object instanceof Map) return plainRecord(Object.fromEntries(object), depth, seen);
    if (object instanceof Set) return [...object].map((item) => plainJson(item, depth + 1, seen) ?? null);
    if (ArrayBuffer.isView(object)) return `[${object.byteLength} bytes]`;
    const record = object as Record<string, unknown>;
    // A LangChain document.
    if (typeof record.pageContent === 'string' && 'metadata' in record)
      return plainRecord({ page_content: record.pageContent, metadata: record.metadata, id: record.id }, depth, seen);
    // Another LangChain object (a prompt value, a generation): the fields it was made from.
    if (isRecord(record.lc_kwargs)) return plainRecord(record.lc_kwargs, depth, seen);
    return plainRecord(record, depth, seen);
  } finally {
    seen.delete(object);
  }
}

function plainRecord(record: Record<string, unknown>, depth: number, seen: WeakSet<object>): Plain {
  const out: Plain = {};
  for (const [key, item] of Object.entries(record)) {
    const json = plainJson(item, depth + 1, seen);
    if (json !== undefined) out[key] = json;
  }
  return out;
}

/** The fields of a record as plain JSON (an empty record for anything else). */
const plainOf = (value: unknown): Plain => {
  const json = plainJson(value);
  return isRecord(json) ? (json as Plain) : {};
};

/** Only the scalar fields of a record: config and callback metadata, whose objects are LangGraph's internals. */
const scalarsOf = (value: unknown): Plain =>
  isRecord(value)
    ? Object.fromEntries(
        Object.entries(value).filter(
          ([key, item]) =>
            !key.startsWith('__') &&
            (typeof item === 'string' ||
              typeof item === 'boolean' ||
              (typeof item === 'number' && Number.isFinite(item))),
        ) as [string, Json][],
      )
    : {};

/** A runnable config as the LangGraph API shows it: its `configurable` ids, no callbacks or internal keys. */
function configJson(config: unknown): Plain | null {
  if (!isRecord(config)) return null;
  return { configurable: scalarsOf(config.configurable) };
}

/** A checkpoint's address, as `GET /threads/{id}/state` writes it (`{thread_id, checkpoint_ns, checkpoint_id, …}`). */
function checkpointOf(config: unknown): Plain | null {
  const configurable = isRecord(config) && isRecord(config.configurable) ? config.configurable : undefined;
  if (typeof configurable?.thread_id !== 'string') return null;
  return {
    thread_id: configurable.thread_id,
    checkpoint_ns: typeof configurable.checkpoint_ns === 'string' ? configurable.checkpoint_ns : '',
    checkpoint_id: typeof configurable.checkpoint_id === 'string' ? configurable.checkpoint_id : null,
    checkpoint_map: null,
  };
}

/** What a task's writes or error are, as text: an error object's message, nothing more. */
const errorText = (error: unknown): string | null => {
  if (error === null || error === undefined) return null;
  if (error instanceof Error) return error.message;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return typeof error === 'string' ? error : JSON.stringify(plainJson(error));
};

/**
 * A `tasks` chunk: a task starting (`{id, name, input, triggers, interrupts}`) or its result (`{id, name, result,
 * interrupts, error}`), as LangGraph emits them, in plain JSON.
 */
export function taskJson(chunk: unknown): Plain {
  const task = isRecord(chunk) ? chunk : {};
  const out: Plain = {
    id: typeof task.id === 'string' ? task.id : '',
    name: typeof task.name === 'string' ? task.name : '',
    interrupts: (plainJson(task.interrupts ?? []) as Json[] | null) ?? [],
  };
  if ('input' in task) out.input = plainJson(task.input) ?? null;
  if ('triggers' in task) out.triggers = (plainJson(task.triggers) as Json[] | null) ?? [];
  if ('result' in task) out.result = plainJson(task.result) ?? null;
  if ('error' in task) out.error = errorText(task.error);
  if (isRecord(task.metadata)) out.metadata = scalarsOf(task.metadata);
  return out;
}

/** A task as a checkpoint lists it: its id and name, its error, interrupts and result, its subgraph's checkpoint. */
function checkpointTaskJson(chunk: unknown): Plain {
  const task = isRecord(chunk) ? chunk : {};
  const out: Plain = {
    id: typeof task.id === 'string' ? task.id : '',
    name: typeof task.name === 'string' ? task.name : '',
    interrupts: (plainJson(task.interrupts ?? []) as Json[] | null) ?? [],
  };
  if ('error' in task) out.error = errorText(task.error);
  if ('result' in task && task.result !== undefined) out.result = plainJson(task.result) ?? null;
  const checkpoint = checkpointOf(task.state);
  if (checkpoint) out.checkpoint = checkpoint;
  return out;
}

/**
 * A `checkpoints` chunk as the LangGraph API sends it: the state (`values`, as the run's `values` events show it),
 * `next`, `config` and `parent_config` (ids only), the checkpoint's `metadata`, its `tasks`, and the `checkpoint` /
 * `parent_checkpoint` addresses a client can fork from.
 */
export function checkpointJson(
  chunk: unknown,
  view: (values: Record<string, unknown>) => Record<string, unknown>,
): Plain {
  const payload = isRecord(chunk) ? chunk : {};
  const values = isRecord(payload.values) ? view(payload.values) : {};
  return {
    values: plainOf(values),
    next: (plainJson(payload.next ?? []) as Json[] | null) ?? [],
    config: configJson(payload.config),
    parent_config: configJson(payload.parentConfig),
    metadata: plainOf(payload.metadata),
    tasks: Array.isArray(payload.tasks) ? payload.tasks.map(checkpointTaskJson) : [],
    checkpoint: checkpointOf(payload.config),
    parent_checkpoint: checkpointOf(payload.parentConfig),
  };
}

/** A `debug` chunk: `{type: checkpoint | task | task_result, step, timestamp, payload}`, its payload as above. */
export function debugJson(chunk: unknown, view: (values: Record<string, unknown>) => Record<string, unknown>): Plain {
  const debug = isRecord(chunk) ? chunk : {};
  const type = typeof debug.type === 'string' ? debug.type : 'task';
  return {
    type,
    step: typeof debug.step === 'number' ? debug.step : null,
    timestamp: typeof debug.timestamp === 'string' ? debug.timestamp : new Date().toISOString(),
    payload: type === 'checkpoint' ? checkpointJson(debug.payload, view) : taskJson(debug.payload),
  };
}

/** One `streamEvents` (v2) event as the `events` mode sends it: `{event, name, run_id, tags, metadata, parent_ids, data}`. */
export function callbackEventJson(event: unknown): Plain {
  const record = isRecord(event) ? event : {};
  return {
    event: typeof record.event === 'string' ? record.event : '',
    name: typeof record.name === 'string' ? record.name : '',
    run_id: typeof record.run_id === 'string' ? record.run_id : '',
    tags: Array.isArray(record.tags) ? record.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    metadata: scalarsOf(record.metadata),
    parent_ids: Array.isArray(record.parent_ids)
      ? record.parent_ids.filter((id): id is string => typeof id === 'string')
      : [],
    data: plainOf(record.data),
  };
}

/**
 * A `tools` chunk (a LangChain tool run inside a node): `{event: on_tool_start | on_tool_event | on_tool_end |
 * on_tool_error, toolCallId, name, input | data | output | error}`, as LangGraph emits it, in plain JSON.
 */
export function toolEventJson(chunk: unknown): Plain {
  const record = isRecord(chunk) ? chunk : {};
  const out: Plain = {
    event: typeof record.event === 'string' ? record.event : '',
    name: typeof record.name === 'string' ? record.name : '',
  };
  if (typeof record.toolCallId === 'string') out.toolCallId = record.toolCallId;
  for (const key of ['input', 'data', 'output'] as const) if (key in record) out[key] = plainJson(record[key]) ?? null;
  if ('error' in record) out.error = errorText(record.error);
  return out;
}

/** A detail mode's chunk as the run records it. */
export function detailChunkJson(
  mode: DetailStreamMode,
  chunk: unknown,
  view: (values: Record<string, unknown>) => Record<string, unknown>,
): Plain {
  switch (mode) {
    case 'events':
      return callbackEventJson(chunk);
    case 'debug':
      return debugJson(chunk, view);
    case 'checkpoints':
      return checkpointJson(chunk, view);
    case 'tasks':
      return taskJson(chunk);
    case 'tools':
      return toolEventJson(chunk);
  }
}
