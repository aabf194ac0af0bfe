import type { Principal } from '../domain/index.ts';
import type { DocumentStore, RunEventRecord } from '../store/store.ts';
import { detailModesOf, isDetailStreamMode, recordedModesOf, type DetailStreamMode } from './detail-stream-modes.ts';
import { chunkIdsIn, ReaderRedaction, WITHHELD_TEXT } from './redact-for-reader.ts';
import { ValuesReplay } from './values-delta.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A run's stored events as one reader may see them today, read in order from the run's first event. Every event goes
 * through the reader redaction the thread's state and history go through (`ReaderRedaction`). The detail modes carry
 * more than the state: `events` has every chain's and model's input and output (a prompt quotes evidence without
 * naming its chunk), and a task's error may quote what it read. So once the run's log has named a chunk the reader
 * may not read (its evidence, hits and citations name every chunk the run retrieved, before any step uses its
 * text), these are withheld whole from the detail events that follow: an `events` event keeps its name, ids, tags
 * and metadata and loses its `data`; a `tools` event keeps its name and ids and loses its input, output and error;
 * `tasks`, `debug` and `checkpoints` lose their `error` texts. The chunk ids are
 * collected from the events before the replay point too, so a replay from any `Last-Event-ID` withholds the same.
 * `values` are stored as deltas: read from the run's first event, they are rebuilt whole.
 */
export class RunStreamRedaction {
  private readonly base: ReaderRedaction;
  private readonly replay = new ValuesReplay();
  /** Whether the run records a detail mode (decided by its first `metadata` event); the ids are only collected then. */
  private detail: boolean | undefined;
  private readonly verdicts = new Map<string, boolean>();
  private pending = new Set<string>();
  private hidden = false;

  constructor(
    private readonly store: Pick<DocumentStore, 'getChunks'>,
    private readonly reader: Principal,
  ) {
    this.base = new ReaderRedaction(store, reader);
  }

  /** One committed batch of the run's log (read in order from its first): its events after `afterSeq`, for the reader. */
  async batch(stored: readonly RunEventRecord[], afterSeq: number): Promise<RunEventRecord[]> {
    const out: RunEventRecord[] = [];
    for (const event of stored) {
      const data = event.event === 'values' ? this.replay.next(event.data) : event.data;
      const shown = event.seq > afterSeq;
      const redacted = await this.next(event.event, event.data, data, shown);
      if (shown) out.push({ ...event, data: redacted });
    }
    return out;
  }

  /**
   * One event of the log: `stored` as the log holds it, `data` as the reader would get it whole (a `values` delta
   * replayed). Returns what the reader may see of `data`; an event before the replay point (`shown` false) is only
   * read for the chunks it names.
   */
  async next(event: string, stored: unknown, data: unknown, shown: boolean): Promise<unknown> {
    if (event === 'metadata' && this.detail === undefined)
      this.detail = detailModesOf(recordedModesOf(stored)).length > 0;
    if (this.detail && !this.hidden) {
      for (const id of chunkIdsIn(stored, new Set())) if (!this.verdicts.has(id)) this.pending.add(id);
    }
    if (!shown) return undefined;
    const redacted = await this.base.apply(data);
    if (!isDetailStreamMode(event) || !(await this.namesHidden())) return redacted;
    return withheldDetail(event, redacted);
  }

  /** Whether a chunk the log named so far is one the reader may not read (one store query per batch of new ids). */
  private async namesHidden(): Promise<boolean> {
    if (this.hidden) return true;
    if (this.pending.size === 0) return false;
    const ids = [...this.pending];
    this.pending = new Set();
    const readable = new Set((await this.store.getChunks(ids, this.reader)).map((chunk) => chunk.id));
    for (const id of ids) {
      this.verdicts.set(id, readable.has(id));
      if (!readable.has(id)) this.hidden = true;
    }
    return this.hidden;
  }
}

/** A detail event of a run that used what the reader may not read: its free text withheld, its structure kept. */
export function withheldDetail(mode: DetailStreamMode, data: unknown): unknown {
  if (!isRecord(data)) return data;
  if (mode === 'events') return { ...data, data: { withheld: WITHHELD_TEXT } };
  if (mode === 'tools') {
    const out: Record<string, unknown> = { ...data };
    for (const key of ['input', 'data', 'output', 'error']) if (key in out) out[key] = WITHHELD_TEXT;
    return out;
  }
  return withholdErrors(data);
}

function withholdErrors(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withholdErrors);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = key === 'error' && typeof item === 'string' && item !== '' ? WITHHELD_TEXT : withholdErrors(item);
  return out;
}
