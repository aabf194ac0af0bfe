import { DecodedBlock } from './block-codec.ts';

/** FTS5's bm25() constants (fts5_aux.c). */
export const K1 = 1.2;
export const B = 0.75;
/** Bounds are raised by this much against the rounding of float sums taken in another order. */
const ROUND_UP = 1 + 1e-9;

/** One query term's stored blocks, as read from `keyword_blocks` in pk order. */
export interface StoredBlocks {
  firstPk: Int32Array;
  lastPk: Int32Array;
  count: Int32Array;
  maxTf: Int32Array;
  minLength: Int32Array;
  data: Uint8Array[];
}

/** The corpus figures bm25() reads: the row count and the average row length in tokens. */
export interface Corpus {
  rows: number;
  avgLength: number;
}

/** A query term as the ranking walks it: its blocks, its BM25 weight and its bounds. */
export class TermList {
  /** Chunks holding the term: FTS5's nHit for its phrase. */
  readonly df: number;
  /** ln((N − df + 0.5) / (df + 0.5)), or 1e-6 when that is ≤ 0, as bm25() computes it. */
  readonly idf: number;
  /** Per block, more than the term (with its query count) adds to any chunk of the block. */
  readonly blockBound: Float64Array;
  /** The highest block bound. */
  readonly bound: number;

  constructor(
    readonly blocks: StoredBlocks,
    /** The term's phrases in the query (its query term frequency). */
    readonly count: number,
    readonly corpus: Corpus,
  ) {
    let df = 0;
    for (const n of blocks.count) df += n;
    this.df = df;
    const raw = Math.log((corpus.rows - df + 0.5) / (df + 0.5));
    this.idf = raw > 0 ? raw : 1e-6;
    this.blockBound = new Float64Array(blocks.count.length);
    let bound = 0;
    for (let b = 0; b < this.blockBound.length; b++) {
      const value =
        count *
        termScore(this.idf, blocks.maxTf[b] as number, blocks.minLength[b] as number, corpus.avgLength) *
        ROUND_UP;
      this.blockBound[b] = value;
      if (value > bound) bound = value;
    }
    this.bound = bound;
  }
}

/** One phrase's part of bm25() for a row, written as fts5_aux.c computes it so the doubles come out the same. */
export const termScore = (idf: number, tf: number, length: number, avgLength: number): number =>
  idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * length) / avgLength)));

/** A position in a term's postings; `pk` is 2^31 − 1 once past the end. */
export class Cursor {
  static readonly END = 0x7fffffff;
  pk = -1;
  private block = -1;
  private at = 0;
  private readonly decoded = new DecodedBlock();

  constructor(readonly list: TermList) {}

  get doc(): number {
    return this.decoded.doc[this.at] as number;
  }
  get tf(): number {
    return this.decoded.tf[this.at] as number;
  }
  get length(): number {
    return this.decoded.length[this.at] as number;
  }
  /** The bound of the block the cursor is in. */
  get blockBound(): number {
    return this.list.blockBound[this.block] as number;
  }
  /** The last pk of the block the cursor is in. */
  get blockLast(): number {
    return this.list.blocks.lastPk[this.block] as number;
  }

  /** Moves to the next posting. */
  next(): void {
    if (this.block >= 0 && this.at + 1 < this.decoded.size) {
      this.at++;
      this.pk = this.decoded.pk[this.at] as number;
    } else this.load(this.block + 1);
  }

  /** Moves to the first posting with pk ≥ `target` (nowhere when already there), skipping whole blocks. */
  advance(target: number): void {
    if (this.pk >= target) return;
    const { lastPk } = this.list.blocks;
    let b = this.block < 0 ? 0 : this.block;
    if ((lastPk[b] as number) < target) {
      // Galloping then binary search over the blocks' last pks.
      let step = 1;
      let low = b;
      let high = b + step;
      while (high < lastPk.length && (lastPk[high] as number) < target) {
        low = high;
        step *= 2;
        high = b + step;
      }
      high = Math.min(high, lastPk.length);
      while (low < high) {
        const mid = (low + high) >>> 1;
        if ((lastPk[mid] as number) < target) low = mid + 1;
        else high = mid;
      }
      b = low;
    }
    if (b !== this.block) this.load(b);
    if (this.pk === Cursor.END) return;
    const pks = this.decoded.pk;
    while (this.at < this.decoded.size && (pks[this.at] as number) < target) this.at++;
    // The block's last pk is ≥ target, so a posting is found.
    this.pk = pks[this.at] as number;
  }

  /** The bound of the block that would hold `target`, without decoding it; 0 when no block can. */
  boundAt(target: number): number {
    const { firstPk, lastPk } = this.list.blocks;
    let low = this.block < 0 ? 0 : this.block;
    let high = lastPk.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((lastPk[mid] as number) < target) low = mid + 1;
      else high = mid;
    }
    if (low >= lastPk.length || (firstPk[low] as number) > target) return 0;
    return this.list.blockBound[low] as number;
  }

  private load(block: number): void {
    const { blocks } = this.list;
    if (block >= blocks.data.length) {
      this.block = blocks.data.length;
      this.pk = Cursor.END;
      return;
    }
    this.block = block;
    this.decoded.decode(
      blocks.data[block] as Uint8Array,
      blocks.firstPk[block] as number,
      blocks.count[block] as number,
    );
    this.at = 0;
    this.pk = this.decoded.pk[0] as number;
  }
}
