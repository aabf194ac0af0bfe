import type { SqliteConnection } from '../connection.ts';

/** A term's last recent block, with what appending to it needs: its last pk and document pk, and its bounds. */
export interface Tail {
  firstPk: number;
  lastPk: number;
  /** The document pk of its last posting (the next posting's document gap is taken from it). */
  lastDoc: number;
  count: number;
  maxTf: number;
  minLength: number;
  data: Uint8Array;
}

/** Bytes of tails kept per connection; past it the oldest entries go (and a term not held is read from the store). */
const CAPACITY_BYTES = 64 * 1024 * 1024;
/**
 * Rows of `keyword_recent` past which a batch merges them into `keyword_blocks` (`postings-merge.ts`), for the tails
 * caches made from now on (tests lower it to see merges in small stores).
 */
export const mergePolicy = { rows: 100_000 };
/** What an entry costs beyond its data: the object, its key and the map's slot, roughly. */
const ENTRY_BYTES = 120;

/**
 * Each term's last block in `keyword_recent` (where batches write, `postings-rows.ts`) as this connection last wrote
 * or read it, so a batch appends to a term's tail without reading and decoding it again, and how many rows that table
 * holds (a batch merges them into `keyword_blocks` past `mergeRows`). The entries hold one committed store generation: every content write bumps it
 * (`contentWrite`, which tells the cache when its transaction committed or failed), so a write by another connection
 * or a transaction that rolled back empties the cache. Within one transaction the batch that wrote the entries keeps
 * using them (`owner`). `complete`: every term of the store is held, so a term not held has no postings yet (true
 * when the cache began on a store without postings and nothing was dropped since).
 */
export class PostingsTails {
  /** The committed generation the entries hold, or -1. */
  private generation = -1;
  /** The batch whose writes (not yet committed) the entries hold, and the generation its transaction began at. */
  private owner: object | undefined;
  private base = -1;
  private bytes = 0;
  complete = false;
  /** Rows of `keyword_recent` (counted when the cache began, then as the batches add blocks). */
  recentRows = 0;
  private readonly tails = new Map<string, Tail>();

  constructor(
    private readonly capacity = CAPACITY_BYTES,
    readonly mergeRows = mergePolicy.rows,
  ) {}

  /**
   * Called by `batch` before it writes in its transaction, the store at `generation`: empties the cache unless it
   * holds that generation's tails (committed, or written earlier in this transaction by `batch`).
   */
  begin(conn: SqliteConnection, batch: object, generation: number): void {
    const valid =
      this.owner === undefined ? this.generation === generation : this.owner === batch && this.base === generation;
    if (!valid) this.clear(conn);
    this.owner = batch;
    this.base = generation;
  }

  /** The transaction that wrote through the cache committed, leaving the store at `generation`. */
  committed(generation: number): void {
    if (this.owner === undefined) return;
    this.owner = undefined;
    this.generation = generation;
  }

  /** The transaction failed: what the entries hold may not be in the store. */
  failed(): void {
    if (this.owner === undefined) return;
    this.owner = undefined;
    this.generation = -1;
    this.tails.clear();
    this.bytes = 0;
  }

  private clear(conn: SqliteConnection): void {
    this.tails.clear();
    this.bytes = 0;
    this.generation = -1;
    this.recentRows = (conn.stmt('SELECT count(*) AS n FROM keyword_recent').get() as { n: number }).n;
    this.complete = this.recentRows === 0;
  }

  /** `keyword_recent` was merged into `keyword_blocks` by the owning batch: no term has a recent tail now. */
  emptied(): void {
    this.tails.clear();
    this.bytes = 0;
    this.recentRows = 0;
    this.complete = true;
  }

  get(term: string): Tail | undefined {
    return this.tails.get(term);
  }

  /** The term's tail is now `tail`. */
  set(term: string, tail: Tail): void {
    const previous = this.tails.get(term);
    this.tails.set(term, tail);
    this.bytes += previous ? tail.data.length - previous.data.length : ENTRY_BYTES + tail.data.length;
    if (this.bytes <= this.capacity) return;
    for (const [oldest, entry] of this.tails) {
      if (this.bytes <= this.capacity / 2) break;
      this.tails.delete(oldest);
      this.bytes -= ENTRY_BYTES + entry.data.length;
    }
    this.complete = false;
  }

  /** The term has no blocks any more. */
  drop(term: string): void {
    const entry = this.tails.get(term);
    if (!entry) return;
    this.tails.delete(term);
    this.bytes -= ENTRY_BYTES + entry.data.length;
  }
}

const perConnection = new WeakMap<SqliteConnection, PostingsTails>();

/** The tails cache of `conn`. */
export function tailsOf(conn: SqliteConnection): PostingsTails {
  let tails = perConnection.get(conn);
  if (!tails) {
    tails = new PostingsTails();
    perConnection.set(conn, tails);
  }
  return tails;
}

/**
 * Tells `conn`'s tails cache how the content write's transaction ended: committed at `generation`, or failed
 * (undefined).
 */
export function settleTails(conn: SqliteConnection, generation: number | undefined): void {
  const tails = perConnection.get(conn);
  if (!tails) return;
  if (generation === undefined) tails.failed();
  else tails.committed(generation);
}

/** A stored block's last document pk: the sum of its postings' zigzag document gaps (every fourth varint). */
export function lastDocOf(data: Uint8Array, count: number): number {
  let at = 0;
  let doc = 0;
  for (let i = 0; i < count; i++) {
    // pk gap, tf, length: skipped.
    for (let skip = 0; skip < 3; skip++) while ((data[at++] as number) & 0x80);
    let byte = data[at++] as number;
    let value = byte & 0x7f;
    for (let scale = 128; byte & 0x80; scale *= 128) {
      byte = data[at++] as number;
      value += (byte & 0x7f) * scale;
    }
    doc += value % 2 === 0 ? value / 2 : -(value + 1) / 2;
  }
  return doc;
}

/**
 * Varint bytes of postings as `block-codec.ts` stores them, written after a block's previous posting (`lastPk`,
 * `lastDoc`; a new block starts from its first pk and document 0). Grows as needed; `take` copies out what was written.
 */
export class PostingEncoder {
  private bytes = new Uint8Array(64 * 1024);
  private at = 0;

  reset(): void {
    this.at = 0;
  }

  get length(): number {
    return this.at;
  }

  /** Appends one posting: gaps from `previousPk`/`previousDoc`. */
  put(pk: number, previousPk: number, doc: number, previousDoc: number, tf: number, length: number): void {
    if (this.at + 40 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes.subarray(0, this.at));
      this.bytes = grown;
    }
    this.varint(pk - previousPk);
    this.varint(tf);
    this.varint(length);
    const gap = doc - previousDoc;
    this.varint(gap >= 0 ? gap * 2 : -gap * 2 - 1);
  }

  /** `head` followed by what was written since `reset`, as a new array. */
  take(head?: Uint8Array): Uint8Array {
    const headLength = head?.length ?? 0;
    const out = new Uint8Array(headLength + this.at);
    if (head) out.set(head);
    out.set(this.bytes.subarray(0, this.at), headLength);
    return out;
  }

  private varint(value: number): void {
    const { bytes } = this;
    let v = value;
    while (v >= 0x80) {
      bytes[this.at++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    bytes[this.at++] = v;
  }
}

/** The encoder the writer uses (the writes are synchronous). */
export const encoder = new PostingEncoder();
export const EMPTY = new Uint8Array(0);
