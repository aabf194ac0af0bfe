import type { DetailStreamMode } from './detail-stream-modes.ts';

/** The default bound on what one run records of the detail modes, in bytes of JSON (config `runs.detailStreamMaxBytes`). */
export const DEFAULT_DETAIL_STREAM_MAX_BYTES = 8 * 1024 * 1024;

/** What one detail chunk becomes: stored as it is, replaced by the notice that the mode was cut here, or dropped. */
export type Admission = { kind: 'store' } | { kind: 'cut'; notice: Record<string, unknown> } | { kind: 'drop' };

/**
 * The bound on one run's detail modes (`events` alone can carry every token of every chain, `checkpoints` the whole
 * state at every step): they share `maxBytes` of JSON per execution. The first chunk of a mode that would go past it
 * is replaced by one notice, in that mode's own event, that the rest of the mode was not recorded; later chunks of
 * that mode are dropped. The base modes (values, updates, custom, messages) are never cut.
 */
export class DetailStreamBudget {
  private used = 0;
  private readonly cut = new Set<DetailStreamMode>();

  constructor(
    private readonly maxBytes: number,
    private readonly runId: string,
  ) {}

  admit(mode: DetailStreamMode, json: string, step: number | null): Admission {
    if (this.cut.has(mode)) return { kind: 'drop' };
    const bytes = Buffer.byteLength(json);
    if (this.used + bytes <= this.maxBytes) {
      this.used += bytes;
      return { kind: 'store' };
    }
    this.cut.add(mode);
    return { kind: 'cut', notice: truncationNotice(mode, this.maxBytes, this.runId, step) };
  }
}

/**
 * The notice that a mode was cut, shaped as that mode's own events are (so a client that reads only that mode reads
 * it), each with `truncated: true`: an `events` event `on_stream_truncated`, a `debug` chunk of type
 * `stream_truncated`, a `tasks` chunk with an `error`, a `checkpoints` chunk with empty values and the notice in its
 * metadata, a `tools` event `on_tool_error`.
 */
export function truncationNotice(
  mode: DetailStreamMode,
  maxBytes: number,
  runId: string,
  step: number | null,
): Record<string, unknown> {
  const message = `The run recorded ${maxBytes} bytes of its ${mode === 'events' ? 'events' : 'detail'} stream modes (runs.detailStreamMaxBytes); the rest of its ${mode} stream was not recorded.`;
  const notice = { truncated: true, mode, limit_bytes: maxBytes, message };
  switch (mode) {
    case 'events':
      return {
        ...notice,
        event: 'on_stream_truncated',
        name: 'evident',
        run_id: runId,
        tags: [],
        metadata: {},
        parent_ids: [],
        data: { limit_bytes: maxBytes, message },
      };
    case 'debug':
      return { ...notice, type: 'stream_truncated', step, timestamp: new Date().toISOString(), payload: notice };
    case 'tasks':
      return { ...notice, id: 'stream_truncated', name: 'stream_truncated', interrupts: [], error: message };
    case 'checkpoints':
      return { ...notice, values: {}, next: [], config: null, metadata: { stream_truncated: notice }, tasks: [] };
    case 'tools':
      return { ...notice, event: 'on_tool_error', name: 'stream_truncated', error: message };
  }
}
