import type { Principal } from '../../domain/index.ts';
import type { DocumentStore } from '../../store/store.ts';

/** What replaces a withheld answer or conversation turn: it says that something was withheld, never what it said. */
export const WITHHELD_TEXT = '[withheld: this cites documents you cannot read now]';

const CHUNK_MENTION = /\[chunk_id: ([^\]\s]+)\]/g;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/** Lists of bare chunk ids (a step event's hits, a turn's sources). */
const ID_LISTS = new Set(['chunk_ids', 'evidence_ids', 'sources']);

/** Every chunk id a stored value refers to: `chunk_id` fields, id lists, a turn's `sources`, `[chunk_id: …]` in text. */
function chunkIdsIn(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') {
    for (const match of value.matchAll(CHUNK_MENTION)) into.add(match[1] as string);
  } else if (Array.isArray(value)) {
    for (const item of value) chunkIdsIn(item, into);
  } else if (isRecord(value)) {
    if (typeof value.chunk_id === 'string') into.add(value.chunk_id);
    for (const key of ID_LISTS) for (const id of strings(value[key])) into.add(id);
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
  withheld = 0;

  constructor(
    private readonly store: Pick<DocumentStore, 'getChunks'>,
    private readonly reader: Principal,
  ) {}

  async apply<T>(value: T): Promise<T> {
    const unknown = [...chunkIdsIn(value, new Set())].filter((id) => !this.visible.has(id));
    if (unknown.length > 0) {
      const readable = new Set((await this.store.getChunks(unknown, this.reader)).map((chunk) => chunk.id));
      for (const id of unknown) this.visible.set(id, readable.has(id));
    }
    const before = this.withheld;
    const redacted = this.walk(value) as T;
    return this.withheld > before && isRecord(redacted) && !('withheld' in redacted) ? ({ ...redacted, withheld: this.withheld - before } as T) : redacted;
  }

  private hidden = (id: string): boolean => this.visible.get(id) !== true;

  /** Whether this item rests on a chunk the reader may not read, so that it is left out whole (evidence, a citation, a hit). */
  private restsOnHidden(value: unknown): boolean {
    if (typeof value === 'string') return [...value.matchAll(CHUNK_MENTION)].some((match) => this.hidden(match[1] as string));
    if (!isRecord(value)) return false;
    if (typeof value.chunk_id === 'string' && this.hidden(value.chunk_id)) return true;
    // An item with text from its chunks (a context item) goes whole; a bare hit list is filtered id by id.
    return typeof value.text === 'string' && strings(value.chunk_ids).some(this.hidden);
  }

  private walk(value: unknown, key = ''): unknown {
    if (Array.isArray(value)) {
      const kept = ID_LISTS.has(key) ? value.filter((id) => typeof id !== 'string' || !this.hidden(id)) : value.filter((item) => !this.restsOnHidden(item));
      this.withheld += value.length - kept.length;
      return kept.map((item) => this.walk(item));
    }
    if (typeof value === 'string') {
      if (!this.restsOnHidden(value)) return value;
      this.withheld += 1;
      return WITHHELD_TEXT;
    }
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [field, item] of Object.entries(value)) out[field] = this.walk(item, field);
    // An answer that lost a citation quoted it; a turn from an answer that rests on a hidden chunk repeats it.
    const citedHidden = Array.isArray(value.citations) && Array.isArray(out.citations) && out.citations.length < value.citations.length;
    if (citedHidden && typeof out.answer === 'string') out.answer = WITHHELD_TEXT;
    if (typeof value.content === 'string' && strings(value.sources).some(this.hidden)) {
      out.content = WITHHELD_TEXT;
      this.withheld += 1;
    }
    // A state's chat `messages` mirror its `history` turn by turn.
    if (Array.isArray(out.history) && Array.isArray(out.messages)) out.messages = mirrorWithheld(out.messages, out.history);
    return out;
  }
}

function mirrorWithheld(messages: unknown[], history: unknown[]): unknown[] {
  return messages.map((message, index) => {
    const turn = history[index];
    return isRecord(message) && isRecord(turn) && turn.content === WITHHELD_TEXT ? { ...message, content: WITHHELD_TEXT } : message;
  });
}
