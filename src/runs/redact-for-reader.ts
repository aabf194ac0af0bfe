import type { StateSnapshot } from '@langchain/langgraph';
import type { Principal } from '../domain/index.ts';
import type { DocumentStore } from '../store/store.ts';
import { docIdOfChunk } from './run-trace.ts';

/** What replaces a withheld answer or conversation turn: it says that something was withheld, never what it said. */
export const WITHHELD_TEXT = '[withheld: this cites documents you cannot read now]';

/** A chunk id in free text (`contracts/ct-2024-0193.md#0`, `[chunk_id: …]`): a path-like token and its ordinal. */
const CHUNK_MENTION = /([^\s,;:"'()[\]{}<>]+#\d+)/g;

/** Fields whose text is written from the items beside or below them. */
const DERIVED_TEXT = ['answer', 'response', 'content', 'thought', 'raw', 'result_summary'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** Lists of bare chunk ids (a step event's hits, a turn's sources, what a running summary was folded from). */
const ID_LISTS = new Set(['chunk_ids', 'evidence_ids', 'sources', 'history_summary_sources', 'plan_sources']);
/** Text fields (or lists of texts) written from the chunks an id list beside them names: withheld when one of those is. */
const GOVERNED_TEXT: readonly (readonly [text: string, sources: string])[] = [
  ['history_summary', 'history_summary_sources'],
  ['plan', 'plan_sources'],
  ['curr_task', 'plan_sources'],
];
/** Lists of the documents a result rests on (a table query's rows): an item naming one the reader may not read goes whole. */
const DOC_LISTS = new Set(['doc_ids']);
/** A document is readable when its first chunk is: a document's ACL covers all its chunks. */
const firstChunkOf = (docId: string): string => `${docId}#0`;

/**
 * Every chunk id a stored value refers to: `chunk_id` fields, id lists, a turn's `sources`, and ids named in text (a
 * token that only looks like one is looked up too, and withheld when it names nothing the reader may read).
 */
export function chunkIdsIn(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') {
    for (const match of value.matchAll(CHUNK_MENTION)) into.add(match[1] as string);
  } else if (Array.isArray(value)) {
    for (const item of value) chunkIdsIn(item, into);
  } else if (isRecord(value)) {
    if (typeof value.chunk_id === 'string') into.add(value.chunk_id);
    for (const key of ID_LISTS) for (const id of strings(value[key])) into.add(id);
    for (const key of DOC_LISTS) for (const id of strings(value[key])) into.add(firstChunkOf(id));
    for (const item of Object.values(value)) chunkIdsIn(item, into);
  }
  return into;
}

/**
 * Reads of stored runs (state, history, events) as the reader may see them today (ARCHITECTURE §2: permissions at
 * the moment of use, also for what was stored earlier). A reader who lost a group, or a document that was deleted,
 * leaves the stored record intact, but what it retrieved from such documents is withheld from the reader: evidence,
 * citations, hits and context items naming an unreadable chunk are dropped, an answer or a conversation turn that
 * rests on one is replaced by a notice, and text quoting one (a tool observation) likewise. `withheld` counts what
 * was left out. One store query per batch of new chunk ids; `visible` caches the verdicts across calls.
 */
export class ReaderRedaction {
  private readonly visible = new Map<string, boolean>();
  private hiddenDocs: string[] = [];
  /** Top-level field objects whose chunk ids are all in `visible`. */
  private readonly scanned = new WeakSet<object>();
  /** What a top-level field object redacted to, while no further document was found hidden (its verdicts hold). */
  private readonly redactedFields = new WeakMap<
    object,
    { key: string; hiddenDocs: number; out: unknown; withheld: number }
  >();
  withheld = 0;

  constructor(
    private readonly store: Pick<DocumentStore, 'getChunks'>,
    private readonly reader: Principal,
  ) {}

  async apply<T>(value: T): Promise<T> {
    const { ids, fields } = this.idsToCheck(value);
    const unknown = [...ids].filter((id) => !this.visible.has(id));
    if (unknown.length > 0) {
      const readable = new Set((await this.store.getChunks(unknown, this.reader)).map((chunk) => chunk.id));
      for (const id of unknown) this.visible.set(id, readable.has(id));
      this.hiddenDocs = this.hiddenDocIds();
    }
    for (const field of fields) this.scanned.add(field);
    const before = this.withheld;
    const redacted = (isRecord(value) ? this.walkRecord(value, true) : this.walk(value)) as T;
    return this.withheld > before && isRecord(redacted) && !('withheld' in redacted)
      ? ({ ...redacted, withheld: this.withheld - before } as T)
      : redacted;
  }

  /**
   * The chunk ids `value` names, less those in top-level fields already read (and the field objects read now): a
   * run's stream rebuilds its whole state at every step, and the fields a step left alone are the very objects the
   * previous event had.
   */
  private idsToCheck(value: unknown): { ids: Set<string>; fields: object[] } {
    if (!isRecord(value)) return { ids: chunkIdsIn(value, new Set()), fields: [] };
    const ids = new Set<string>();
    const fields: object[] = [];
    for (const item of Object.values(value)) {
      if (typeof item !== 'object' || item === null) chunkIdsIn(item, ids);
      else if (!this.scanned.has(item)) {
        chunkIdsIn(item, ids);
        fields.push(item);
      }
    }
    // The record's own references (an evidence item's `chunk_id`, a hit's ids).
    if (typeof value.chunk_id === 'string') ids.add(value.chunk_id);
    for (const key of ID_LISTS) for (const id of strings(value[key])) ids.add(id);
    for (const key of DOC_LISTS) for (const id of strings(value[key])) ids.add(firstChunkOf(id));
    return { ids, fields };
  }

  private hidden = (id: string): boolean => this.visible.get(id) !== true;

  /** Documents with a chunk the reader may not read: a document's ACL covers all its chunks, so its id is withheld in any text. */
  private hiddenDocIds(): string[] {
    const docs = new Set<string>();
    for (const [id, visible] of this.visible) if (!visible) docs.add(docIdOfChunk(id));
    return [...docs];
  }

  /** Whether this item rests on a chunk the reader may not read, so that it is left out whole (evidence, a citation, a hit). */
  private restsOnHidden(value: unknown): boolean {
    // Free text (a step's summary, a verdict's reasons, a tool's observation) that names a withheld document.
    if (typeof value === 'string') return this.hiddenDocs.some((docId) => value.includes(docId));
    if (!isRecord(value)) return false;
    if (typeof value.chunk_id === 'string' && this.hidden(value.chunk_id)) return true;
    // A result computed from a document's rows (a table query's) goes whole, its rows with it.
    for (const key of DOC_LISTS) if (strings(value[key]).some((id) => this.hidden(firstChunkOf(id)))) return true;
    // An item with text from its chunks (a context item) goes whole; a bare hit list is filtered id by id.
    return typeof value.text === 'string' && strings(value.chunk_ids).some(this.hidden);
  }

  private walk(value: unknown, key = ''): unknown {
    if (Array.isArray(value)) {
      const kept = ID_LISTS.has(key)
        ? value.filter((id) => typeof id !== 'string' || !this.hidden(id))
        : value.filter((item) => !this.restsOnHidden(item));
      this.withheld += value.length - kept.length;
      return kept.map((item) => this.walk(item));
    }
    if (typeof value === 'string') {
      if (!this.restsOnHidden(value)) return value;
      this.withheld += 1;
      return WITHHELD_TEXT;
    }
    return isRecord(value) ? this.walkRecord(value, false) : value;
  }

  private walkRecord(value: Record<string, unknown>, top: boolean): Record<string, unknown> {
    const before = this.withheld;
    const out: Record<string, unknown> = {};
    for (const [field, item] of Object.entries(value))
      out[field] = top ? this.walkField(item, field) : this.walk(item, field);
    // Text written from what was withheld below it (an answer from its citations, a turn from its sources, a
    // task's response from its support, a model's thought from its observations) may quote it: withheld too.
    if (this.withheld > before) {
      for (const field of DERIVED_TEXT) {
        if (typeof out[field] === 'string' && out[field] !== WITHHELD_TEXT) {
          out[field] = WITHHELD_TEXT;
          this.withheld += 1;
        }
      }
    }
    for (const [text, sources] of GOVERNED_TEXT) {
      if (!strings(value[sources]).some(this.hidden)) continue;
      if (typeof out[text] === 'string' && out[text] !== '' && out[text] !== WITHHELD_TEXT) {
        out[text] = WITHHELD_TEXT;
        this.withheld += 1;
      } else if (Array.isArray(out[text]) && (out[text] as unknown[]).length > 0) {
        out[text] = [WITHHELD_TEXT];
        this.withheld += 1;
      }
    }
    // A state's chat `messages` mirror its `history` turn by turn.
    if (Array.isArray(out.history) && Array.isArray(out.messages))
      out.messages = mirrorWithheld(out.messages, out.history);
    return out;
  }

  /** A top-level field, redacted as `walk` does, or as it was for the same object when nothing more is hidden since. */
  private walkField(item: unknown, key: string): unknown {
    if (typeof item !== 'object' || item === null) return this.walk(item, key);
    const cached = this.redactedFields.get(item);
    if (cached && cached.key === key && cached.hiddenDocs === this.hiddenDocs.length) {
      this.withheld += cached.withheld;
      return cached.out;
    }
    const before = this.withheld;
    const out = this.walk(item, key);
    this.redactedFields.set(item, { key, hiddenDocs: this.hiddenDocs.length, out, withheld: this.withheld - before });
    return out;
  }
}

function mirrorWithheld(messages: unknown[], history: unknown[]): unknown[] {
  return messages.map((message, index) => {
    const turn = history[index];
    return isRecord(message) && isRecord(turn) && turn.content === WITHHELD_TEXT
      ? { ...message, content: WITHHELD_TEXT }
      : message;
  });
}

/** A stored state as a reader sees it: its values redacted; its config and tasks (ids, pending actions) as they are. */
export const redactedSnapshot = async (
  snapshot: StateSnapshot,
  redaction: ReaderRedaction,
): Promise<StateSnapshot> => ({
  ...snapshot,
  values: await redaction.apply(snapshot.values),
});
