/**
 * Score accumulation for the PostgreSQL keyword ranking (keyword-ranking.ts): each posting of a query term adds its
 * BM25 weight to its row's score, and the best rows come out best first, ties by pk (as the SQLite store and the SQL
 * ranking before schema 26 order them).
 */

export interface RankedRow {
  pk: number;
  score: number;
  /** The row's id, when the ranking was asked for it. */
  id?: string;
}

/** Rows' scores by pk. Dense (a typed array over the pks' range) when that range is small, else a map. */
export interface ScoreBoard {
  add(pk: number, weight: number): void;
  /** Rows scored, in no order. */
  size(): number;
  forEach(visit: (pk: number, score: number) => void): void;
}

/** A dense board covers at most this many pks, and at most this many per posting read. */
const DENSE_MAX_RANGE = 1 << 22;
const DENSE_PER_POSTING = 16;

export function scoreBoard(minPk: number, maxPk: number, postings: number): ScoreBoard {
  const range = maxPk - minPk + 1;
  if (range > 0 && range <= DENSE_MAX_RANGE && range <= Math.max(1 << 16, postings * DENSE_PER_POSTING))
    return denseBoard(minPk, range);
  return mapBoard();
}

function denseBoard(base: number, range: number): ScoreBoard {
  const scores = new Float64Array(range);
  const touched: number[] = [];
  return {
    add(pk, weight) {
      const at = pk - base;
      // Weights are positive, so a zero score is a row not seen yet.
      if (scores[at] === 0) touched.push(at);
      scores[at] = (scores[at] as number) + weight;
    },
    size: () => touched.length,
    forEach(visit) {
      for (const at of touched) visit(at + base, scores[at] as number);
    },
  };
}

function mapBoard(): ScoreBoard {
  const scores = new Map<number, number>();
  return {
    add(pk, weight) {
      scores.set(pk, (scores.get(pk) ?? 0) + weight);
    },
    size: () => scores.size,
    forEach(visit) {
      scores.forEach((score, pk) => visit(pk, score));
    },
  };
}

/** `a` ranks before `b`: higher score, then lower pk. */
const before = (aScore: number, aPk: number, bScore: number, bPk: number): boolean =>
  aScore > bScore || (aScore === bScore && aPk < bPk);

/** The best `count` rows of `board`, best first: a bounded heap whose root is the worst row kept. */
export function topRows(board: ScoreBoard, count: number): RankedRow[] {
  const k = Math.min(Math.floor(count), board.size());
  if (k <= 0) return [];
  const pks = new Float64Array(k);
  const scores = new Float64Array(k);
  let size = 0;
  // Sifts the entry at `i` down: the root holds the worst row, so each child ranks before its parent.
  const siftDown = (start: number) => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < size && before(scores[worst] as number, pks[worst] as number, scores[l] as number, pks[l] as number))
        worst = l;
      if (r < size && before(scores[worst] as number, pks[worst] as number, scores[r] as number, pks[r] as number))
        worst = r;
      if (worst === i) return;
      [pks[i], pks[worst]] = [pks[worst] as number, pks[i] as number];
      [scores[i], scores[worst]] = [scores[worst] as number, scores[i] as number];
      i = worst;
    }
  };
  board.forEach((pk, score) => {
    if (size < k) {
      let i = size++;
      pks[i] = pk;
      scores[i] = score;
      // Sift up: a parent must not rank before its child.
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(scores[parent] as number, pks[parent] as number, scores[i] as number, pks[i] as number)) break;
        [pks[i], pks[parent]] = [pks[parent] as number, pks[i] as number];
        [scores[i], scores[parent]] = [scores[parent] as number, scores[i] as number];
        i = parent;
      }
    } else if (before(score, pk, scores[0] as number, pks[0] as number)) {
      pks[0] = pk;
      scores[0] = score;
      siftDown(0);
    }
  });
  const out: RankedRow[] = [];
  for (let i = 0; i < size; i++) out.push({ pk: pks[i] as number, score: scores[i] as number });
  return out.sort((a, b) => (before(a.score, a.pk, b.score, b.pk) ? -1 : 1));
}
