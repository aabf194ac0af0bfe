import { Cursor, type TermList, termScore } from './term-lists.ts';

/** A ranked chunk: its pk and its bm25() score (higher is better). */
export interface RankedChunk {
  pk: number;
  score: number;
}

/** What a ranking did, for tests and benches: chunks scored in full. */
export interface RankingCounters {
  scored: number;
}

/** Relative slack before a bound is trusted to prune: covers float sums taken in another order than bm25()'s. */
const SLACK = 1e-12;

/**
 * The `k` best chunks by FTS5's bm25() over the query's phrases, those whose document `visible` rejects left out
 * before they are scored, ranked best first with ties to the lower pk (as `ORDER BY bm25(chunk_fts), rowid` does).
 *
 * Block-max MaxScore, document at a time in pk order: the terms are ordered by their bound; the weakest whose bounds
 * together cannot lift a chunk past the current k-th score are non-essential, so only chunks holding an essential
 * term are candidates. A stretch of pks where the essential terms' current block bounds plus the non-essential bounds
 * stay at or below that score is skipped whole; a candidate probes the non-essential terms (strongest first, by the
 * bound of the block that would hold it) only while it can still enter. Survivors are scored exactly as bm25() does:
 * each phrase in query order, `phrases[i]` naming the term list of phrase i.
 */
export function rankBlockMax(
  lists: readonly TermList[],
  phrases: readonly number[],
  avgLength: number,
  k: number,
  visible: ((doc: number) => boolean) | undefined,
  counters?: RankingCounters,
): RankedChunk[] {
  if (k <= 0 || lists.length === 0) return [];
  const order = lists.map((_, i) => i).sort((a, b) => (lists[a] as TermList).bound - (lists[b] as TermList).bound);
  const cursors = order.map((i) => new Cursor(lists[i] as TermList));
  const listOf = order;
  // upTo[i]: the bounds of cursors 0..i-1 together.
  const upTo = new Float64Array(cursors.length + 1);
  for (let i = 0; i < cursors.length; i++) upTo[i + 1] = (upTo[i] as number) + (cursors[i] as Cursor).list.bound;
  for (const cursor of cursors) cursor.next();

  const heap = new TopK(k);
  const tf = new Int32Array(lists.length);
  let threshold = 0;
  // Cursors from `essential` on are essential.
  let essential = 0;
  const raiseEssential = () => {
    while (essential < cursors.length && (upTo[essential + 1] as number) * (1 + SLACK) <= threshold) essential++;
  };

  for (;;) {
    let candidate = Cursor.END;
    for (let i = essential; i < cursors.length; i++) {
      const pk = (cursors[i] as Cursor).pk;
      if (pk < candidate) candidate = pk;
    }
    if (candidate === Cursor.END) break;

    if (heap.full) {
      // Block-max window: every chunk up to the nearest essential block end is bounded by the blocks' bounds.
      let windowBound = upTo[essential] as number;
      let windowEnd = Cursor.END;
      for (let i = essential; i < cursors.length; i++) {
        const cursor = cursors[i] as Cursor;
        if (cursor.pk === Cursor.END) continue;
        windowBound += cursor.blockBound;
        if (cursor.blockLast < windowEnd) windowEnd = cursor.blockLast;
      }
      if (windowBound * (1 + SLACK) <= threshold) {
        for (let i = essential; i < cursors.length; i++) (cursors[i] as Cursor).advance(windowEnd + 1);
        continue;
      }
    }

    // The candidate's essential terms; its document from any of them.
    let doc = -1;
    let length = 0;
    let partial = 0;
    tf.fill(0);
    for (let i = essential; i < cursors.length; i++) {
      const cursor = cursors[i] as Cursor;
      if (cursor.pk !== candidate) continue;
      doc = cursor.doc;
      length = cursor.length;
      tf[listOf[i] as number] = cursor.tf;
      partial += cursor.list.count * termScore(cursor.list.idf, cursor.tf, length, avgLength);
    }
    const visibleDoc = visible === undefined || visible(doc);
    let alive = visibleDoc;
    // Non-essential terms, strongest first, while the candidate can still enter.
    for (let i = essential - 1; alive && i >= 0; i--) {
      if (heap.full && (partial + (upTo[i + 1] as number)) * (1 + SLACK) <= threshold) {
        alive = false;
        break;
      }
      const cursor = cursors[i] as Cursor;
      // Even the bound of the block that would hold the candidate leaves it out.
      if (heap.full && (partial + cursor.boundAt(candidate) + (upTo[i] as number)) * (1 + SLACK) <= threshold) {
        alive = false;
        break;
      }
      cursor.advance(candidate);
      if (cursor.pk === candidate) {
        tf[listOf[i] as number] = cursor.tf;
        partial += cursor.list.count * termScore(cursor.list.idf, cursor.tf, length, avgLength);
      }
    }
    if (alive) {
      // bm25(): every phrase in query order.
      if (counters) counters.scored++;
      let score = 0;
      for (const list of phrases) {
        const f = tf[list] as number;
        if (f > 0) score += termScore((lists[list] as TermList).idf, f, length, avgLength);
      }
      if (heap.offer(candidate, score)) {
        threshold = heap.full ? heap.minScore : 0;
        raiseEssential();
      }
    }
    for (let i = essential; i < cursors.length; i++) {
      const cursor = cursors[i] as Cursor;
      if (cursor.pk === candidate) cursor.next();
    }
    // Cursors that became non-essential stay where they are; they are advanced when probed.
  }
  return heap.sorted();
}

/** The k best (score, pk) pairs: a binary min-heap on (score, then higher pk as worse). */
class TopK {
  private readonly pks: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.pks = new Int32Array(k);
    this.scores = new Float64Array(k);
  }

  get full(): boolean {
    return this.size === this.k;
  }
  get minScore(): number {
    return this.scores[0] as number;
  }

  /** Adds a pair larger than any pk offered before; true when it entered. */
  offer(pk: number, score: number): boolean {
    if (this.size < this.k) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.worse(score, pk, parent)) break;
        this.pks[at] = this.pks[parent] as number;
        this.scores[at] = this.scores[parent] as number;
        at = parent;
      }
      this.pks[at] = pk;
      this.scores[at] = score;
      return true;
    }
    // Ties go to the lower pk, which is already in.
    if (score <= (this.scores[0] as number)) return false;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.isWorse(right, left) ? right : left;
      if (!this.isWorse(child, -1, score, pk)) break;
      this.pks[at] = this.pks[child] as number;
      this.scores[at] = this.scores[child] as number;
      at = child;
    }
    this.pks[at] = pk;
    this.scores[at] = score;
    return true;
  }

  /** Best first, ties to the lower pk. */
  sorted(): RankedChunk[] {
    const out: RankedChunk[] = [];
    for (let i = 0; i < this.size; i++) out.push({ pk: this.pks[i] as number, score: this.scores[i] as number });
    return out.sort((a, b) => b.score - a.score || a.pk - b.pk);
  }

  /** Whether (score, pk) ranks below the pair at `slot`. */
  private worse(score: number, pk: number, slot: number): boolean {
    const other = this.scores[slot] as number;
    return score < other || (score === other && pk > (this.pks[slot] as number));
  }

  /** Whether the pair at `a` ranks below the pair at `b` (or below (score, pk) when `b` is −1). */
  private isWorse(a: number, b: number, score = 0, pk = 0): boolean {
    const sa = this.scores[a] as number;
    const sb = b < 0 ? score : (this.scores[b] as number);
    const pb = b < 0 ? pk : (this.pks[b] as number);
    return sa < sb || (sa === sb && (this.pks[a] as number) > pb);
  }
}
