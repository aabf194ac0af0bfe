import type { SearchTerm } from '../search-terms.ts';
import { aclCondition, aclParams } from './acl-sql.ts';
import { ftsMatch } from './keyword-query.ts';
import type { SqliteConnection } from './connection.ts';
import { CLAMPED_IDF, type TermStats, type TermWeight } from './term-stats.ts';

export interface KeywordRow {
  pk: number;
  chunkId: string;
  /** −bm25(): higher is better. */
  score: number;
}

/**
 * The `k` best chunks the ACL keys let through by FTS5 bm25(), ranked as the one query over the terms would rank them,
 * with two savings:
 *
 * - Terms whose IDF FTS5 clamps to 1e-6 (in half the chunks or more) are left out while the other terms match at least
 *   `k` visible chunks: such a term moves a score by at most ~1e-5 yet costs a bm25() call per chunk it matches (tens
 *   of ms at 100k chunks). When the other terms match fewer, every term is ranked.
 * - Frequent terms are not scored for chunks that match only them, when such chunks cannot reach the top k (MaxScore,
 *   with FTS5 doing the scoring; see prunedRanking). The result is the same ranking with the same scores, up to the
 *   rounding of a float sum taken in another order (~1e-14).
 */
export function rankKeywords(
  conn: SqliteConnection,
  termStats: TermStats,
  terms: readonly SearchTerm[],
  keys: readonly string[] | undefined,
  k: number,
  options: PruningOptions = {},
): KeywordRow[] {
  const weights = termStats.weights(terms);
  const everyTerm = ftsMatch(terms) as string;
  if (!weights) return rankMatch(conn, everyTerm, keys, k);
  const informative = weights.filter((w) => w.idf > CLAMPED_IDF);
  if (informative.length === 0) return rankMatch(conn, everyTerm, keys, k);
  const top =
    prunedRanking(conn, informative, keys, k, options) ?? rankMatch(conn, ftsMatch(informative) as string, keys, k);
  return top.length >= k || informative.length === weights.length ? top : rankMatch(conn, everyTerm, keys, k);
}

/** Chunks the first essential terms must match at least before their k-th best score can bound the rest. */
const essentialPostings = (k: number): number => 4 * k + 50;
/**
 * Postings the left-out terms must hold before pruning pays for its extra queries (two or three instead of one):
 * measured at 100k synthetic chunks, below ~10k the one query is as fast.
 */
const MIN_PRUNED_POSTINGS = 10_000;

export interface PruningOptions {
  /** Tests: prune on small stores too. */
  minPrunedPostings?: number;
  /** Tests: called when a ranking came from the pruned queries. */
  onPruned?: () => void;
}

function prunedRanking(
  conn: SqliteConnection,
  weights: readonly TermWeight[],
  keys: readonly string[] | undefined,
  k: number,
  { minPrunedPostings = MIN_PRUNED_POSTINGS, onPruned }: PruningOptions,
): KeywordRow[] | undefined {
  // Strongest first; ties by df so the cheaper term is essential first.
  const ranked = [...weights].sort((a, b) => b.maxScore - a.maxScore || a.df - b.df);
  let first = 0;
  for (let postings = 0; first < ranked.length && postings < essentialPostings(k); first++)
    postings += (ranked[first] as TermWeight).df;
  if (first === 0 || dfOf(ranked.slice(first)) < minPrunedPostings) return undefined;
  if (!mayPrune(ranked, first, k, minPrunedPostings)) return undefined;
  // A lower bound on the k-th best score: the k-th best over the strongest terms alone (scores only grow with terms).
  const strongest = new Set(ranked.slice(0, first));
  const strongestTop = rankMatch(conn, matchOf(weights, strongest), keys, k);
  const floor = strongestTop[k - 1]?.score;
  if (floor === undefined) return undefined;
  // Leave out the weakest terms while everything they could add stays below the floor.
  const left = new Set<TermWeight>();
  let bound = 0;
  for (let i = ranked.length - 1; i >= first && bound + (ranked[i] as TermWeight).maxScore < floor; i--) {
    bound += (ranked[i] as TermWeight).maxScore;
    left.add(ranked[i] as TermWeight);
  }
  if (dfOf([...left]) < minPrunedPostings) return undefined;
  // Every chunk that can reach the floor matches an essential term. Ranked by the essential terms alone, those
  // without a left-out term have their full score; `(E) AND (L)` ranks the others by their full score.
  const essential = new Set(weights.filter((w) => !left.has(w)));
  const essentialMatch = matchOf(weights, essential);
  const partial = essential.size === strongest.size ? strongestTop : rankMatch(conn, essentialMatch, keys, k);
  const full = rankMatch(conn, `(${essentialMatch}) AND (${matchOf(weights, left)})`, keys, k);
  const top = mergeRankings(full, partial, k);
  if (top.length < k) return undefined;
  onPruned?.();
  return top;
}

/**
 * False when no floor the first `first` terms can give would let terms worth `minPostings` be left out, so the floor
 * query would be wasted. The k-th best score over those terms is at most the sum of their bounds without the rarest
 * ones whose chunks number fewer than k (one of the k best lacks them all); leaving out the weakest terms holding
 * `minPostings` postings needs a floor above their summed bounds.
 */
function mayPrune(ranked: readonly TermWeight[], first: number, k: number, minPostings: number): boolean {
  let skipped = 0;
  let chunks = 0;
  for (const term of [...ranked.slice(0, first)].sort((a, b) => a.df - b.df)) {
    if (chunks + term.df >= k) break;
    chunks += term.df;
    skipped += term.maxScore;
  }
  const floorBound = ranked.slice(0, first).reduce((total, w) => total + w.maxScore, 0) - skipped;
  let postings = 0;
  let needed = 0;
  for (let i = ranked.length - 1; i >= first && postings < minPostings; i--) {
    postings += (ranked[i] as TermWeight).df;
    needed += (ranked[i] as TermWeight).maxScore;
  }
  return postings >= minPostings && needed < floorBound;
}

/** The MATCH expression of the chosen terms, in query order. */
const matchOf = (weights: readonly TermWeight[], chosen: ReadonlySet<TermWeight>): string =>
  ftsMatch(weights.filter((w) => chosen.has(w))) as string;
const dfOf = (weights: readonly TermWeight[]): number => weights.reduce((total, w) => total + w.df, 0);

/**
 * The best `limit` of the full-score ranking of chunks matching E and L (`full`) and the essential-only ranking of all
 * chunks matching E (`partial`), a chunk in both counted with its full score. A chunk of `partial` that also matches
 * L but is not among `full`'s best has a partial score below all of them, so it never displaces one; every other
 * chunk of `partial` scores the same in both rankings. Ties go to the lower pk, as bm25() ORDER BY gives.
 */
function mergeRankings(full: readonly KeywordRow[], partial: readonly KeywordRow[], limit: number): KeywordRow[] {
  const seen = new Set(full.map((row) => row.pk));
  return [...full, ...partial.filter((row) => !seen.has(row.pk))]
    .sort((x, y) => y.score - x.score || x.pk - y.pk)
    .slice(0, limit);
}

/**
 * The `limit` best visible chunks for one MATCH expression. Ranked inside FTS5 first within a bounded window, then
 * joined and filtered; when the window was full and still held too few visible chunks, ranked again with the ACL
 * condition applied to every match before the ranking.
 */
function rankMatch(
  conn: SqliteConnection,
  match: string,
  keys: readonly string[] | undefined,
  limit: number,
): KeywordRow[] {
  const window = keys === undefined ? limit : limit * 3 + 50;
  const windowed = conn
    .stmt(
      `WITH f AS MATERIALIZED (
         SELECT rowid AS pk, bm25(chunk_fts) AS score FROM chunk_fts WHERE chunk_fts MATCH @match
         ORDER BY score, rowid LIMIT @window)
       SELECT f.pk AS pk, c.id AS chunkId, -f.score AS score, (SELECT count(*) FROM f) AS windowRows
       FROM f JOIN chunks c ON c.pk = f.pk
       WHERE 1 = 1${aclCondition('c.doc_pk', keys)}
       ORDER BY f.score, f.pk LIMIT @limit`,
    )
    .all({ match, window, limit, ...aclParams(keys) }) as (KeywordRow & { windowRows: number })[];
  if (windowed.length >= limit || (windowed[0]?.windowRows ?? window) < window) return windowed;
  return conn
    .stmt(
      `SELECT c.pk AS pk, c.id AS chunkId, -bm25(chunk_fts) AS score
       FROM chunk_fts JOIN chunks c ON c.pk = chunk_fts.rowid
       WHERE chunk_fts MATCH @match${aclCondition('c.doc_pk', keys)}
       ORDER BY bm25(chunk_fts), c.pk LIMIT @limit`,
    )
    .all({ match, limit, ...aclParams(keys) }) as KeywordRow[];
}
