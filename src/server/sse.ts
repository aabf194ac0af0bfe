import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { RunManager } from '../runs/run-manager.ts';
import type { Principal } from '../domain/index.ts';
import type { RunEventRecord } from '../store/store.ts';
import { publicErrorOf } from '../errors/public-error.ts';
import { recordedModesOf, streamModeNotRecorded, unrecordedModes } from '../runs/detail-stream-modes.ts';

/**
 * The stream modes a client may ask for; `messages-tuple` is the SDK's name for the `messages` events. The last five
 * (the detail modes) are recorded only for a run whose creator asked for them.
 */
export const STREAM_MODES = [
  'values',
  'updates',
  'custom',
  'messages',
  'messages-tuple',
  'events',
  'debug',
  'checkpoints',
  'tasks',
  'tools',
] as const;
export type StreamMode = (typeof STREAM_MODES)[number];

/** Events every stream carries whatever the modes: they frame the run. */
const FRAMING = new Set(['metadata', 'error', 'end']);

const wanted = (event: RunEventRecord, modes: ReadonlySet<string>) =>
  FRAMING.has(event.event) || modes.has(event.event) || (event.event === 'messages' && modes.has('messages-tuple'));

export interface RunStreamOptions {
  runId: string;
  /** Replay from after this event id (the client's `Last-Event-ID`); 0 for the whole run. */
  afterSeq: number;
  modes: readonly StreamMode[];
  heartbeatMs: number;
  /** Who reads: what the run stored is redacted to what they may read today. */
  reader: Principal;
  /** Called when the client goes away before the run ended (to cancel it when the client asked for that). */
  onDisconnect?: () => void;
}

/**
 * Streams a run's recorded events as SSE, each with its sequence number as the event id, live until the run's
 * `end`. Comment lines keep idle connections (and the SDK's idle detection) alive while a step takes long.
 */
export function streamRunEvents(c: Context, runs: RunManager, options: RunStreamOptions): Response {
  const modes = new Set<string>(options.modes);
  return streamSSE(c, async (stream) => {
    const disconnected = new AbortController();
    let ended = false;
    stream.onAbort(() => {
      disconnected.abort();
      if (!ended) options.onDisconnect?.();
    });
    // A run's values repeat the fields a step left alone as the same objects: their JSON is written once per stream.
    const fieldJson = new WeakMap<object, string>();
    // The run's modes are checked against what it records once (at its first `metadata`, for a stream from the start);
    // every mode at once is a join without modes of a run that had not started: whatever it records.
    let checked = options.afterSeq > 0 || STREAM_MODES.every((mode) => modes.has(mode));
    const heartbeat = setInterval(
      () => void stream.write(': heartbeat\n\n').catch(() => undefined),
      options.heartbeatMs,
    );
    try {
      // One write per committed batch (a step's values, updates and step event), not one per event.
      for await (const batch of runs.eventBatches(
        options.runId,
        options.afterSeq,
        disconnected.signal,
        options.reader,
      )) {
        let text = '';
        for (const event of batch) {
          if (event.event === 'metadata' && !checked) {
            checked = true;
            // A run that had not started when the stream was asked for: its first event says what it records.
            const missing = unrecordedModes(options.modes, recordedModesOf(event.data));
            if (missing.length > 0) {
              const refusal = publicErrorOf(streamModeNotRecorded(options.runId, missing, recordedModesOf(event.data)));
              await stream.write(
                `event: error\ndata: ${JSON.stringify({ error: refusal.code, message: refusal.message, hint: refusal.hint })}\n\n`,
              );
              ended = true;
              return;
            }
          }
          if (event.event === 'end') ended = true;
          if (wanted(event, modes)) text += sseMessage(event, fieldJson);
        }
        if (text) await stream.write(text);
      }
    } finally {
      clearInterval(heartbeat);
    }
  });
}

/**
 * One event as an SSE message: its name, its data as one JSON line (JSON text has no raw line breaks, so it is a
 * single `data:` line) and its sequence number as the id.
 */
const sseMessage = (event: RunEventRecord, fieldJson: WeakMap<object, string>): string =>
  `event: ${event.event}\ndata: ${event.event === 'values' ? recordJson(event.data, fieldJson) : JSON.stringify(event.data ?? null)}\nid: ${event.seq}\n\n`;

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  !('toJSON' in value);

/**
 * `JSON.stringify(data)` of a plain record, with the JSON of each object field taken from `fieldJson` when that very
 * object was written before in this stream (a run's streamed objects are never changed once read: each event's
 * redaction makes new ones, and keeps those of the fields it has seen).
 */
function recordJson(data: unknown, fieldJson: WeakMap<object, string>): string {
  if (!isPlainRecord(data)) return JSON.stringify(data ?? null);
  const parts: string[] = [];
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    let json: string | undefined;
    if (typeof value === 'object' && value !== null) {
      json = fieldJson.get(value) ?? (JSON.stringify(value) as string | undefined);
      if (json !== undefined) fieldJson.set(value, json);
    } else json = JSON.stringify(value) as string | undefined;
    // As JSON.stringify leaves out a field whose value writes nothing.
    if (json === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(',')}}`;
}

/** The client's `Last-Event-ID` as a sequence number (0 when absent or not one of ours). */
export function lastEventId(c: Context): number {
  const value = Number(c.req.header('last-event-id'));
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}
