import type { PoolClient } from 'pg';
import { PREFIX_END, type KeywordTable } from './keyword-index.ts';
import { matchQuery, parseQueryTerms, scoredTerms, type ScoredTerm } from './keyword-query.ts';
import { scoreBoard, topRows, type RankedRow, type ScoreBoard } from './keyword-scores.ts';
import { forEachPosting } from './posting-codec.ts';
import { B, CLAMPED_IDF, K1, documentFrequencies } from './term-stats.ts';

export type { RankedRow } from './keyword-scores.ts';

const statementNames = new Map<string, string>();
/**
 * The ranking's statements are few and repeat with every query, so each is a named (prepared) statement, planned once
 * per connection: at 100k chunks on a loaded machine planning the filter's join took longer than running it.
 */
function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `evident_bm25_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/**
 * BM25 over one corpus, best first, ties by pk. `filter` is a condition on the candidate row `x` and its document
 * `d` (the principal filter); its parameters start at `$1`. No row it refuses takes a place in the result: rows are
 * ranked, then checked best first against it in growing windows until `limit` rows pass or none is left.
 *
 * The postings of the query's terms are read in their blocks (keyword_blocks: a row per term and up to 128 of its
 * postings, posting-codec.ts) and scored here, each weight added to its row's score: one index range per term and a
 * few hundred bytes per block, where a row per posting cost an index tuple and an aggregation step each.
 *
 * Like the SQLite store's fast path, terms in half the rows or more (IDF clamped to ~1e-6) are left out when other
 * terms remain: they add nothing measurable to a score, yet their postings cover most rows. When that leaves fewer
 * than `limit` rows, the ranking runs again with every term, so rows matching only such terms still come, in order.
 */
export async function rankByBm25(
  client: PoolClient,
  target: KeywordTable,
  terms: readonly string[],
  filter: { sql: string; params: unknown[] },
  limit: number,
): Promise<RankedRow[]> {
  const parsed = parseQueryTerms(terms);
  if (parsed.length === 0 || limit <= 0) return [];
  const scored = scoredTerms(parsed);
  const totals = await client.query<{ rows: number; tokens: number }>(
    prepared('SELECT rows, tokens FROM keyword_totals WHERE corpus = $1', [target.corpus]),
  );
  const rows = Number(totals.rows[0]?.rows ?? 0);
  if (rows === 0) return [];
  const avgdl = Math.max(Number(totals.rows[0]?.tokens ?? 0) / rows, 1e-9);
  const exact = scored.filter((s) => !s.prefix).map((s) => s.term);
  const exactDf = new Map(
    (await documentFrequencies(client, target, exact)).map((df, i) => [exact[i] as string, df] as const),
  );
  const informative = scored.map((s) => s.prefix || (exactDf.get(s.term) as number) * 2 < rows);
  const match = parsed.some((term) => term.tokens.length > 1) ? matchQuery(parsed) : undefined;
  const fetched = await fetchBlocks(
    client,
    target,
    scored.filter((_, i) => informative[i] || informative.every((kept) => !kept)),
  );
  const ctx = { client, target, filter, limit: Math.floor(limit), match, rows, avgdl, exactDf };
  if (informative.every(Boolean) || !informative.some(Boolean)) return rankTerms(ctx, scored, fetched);
  const ranked = await rankTerms(
    ctx,
    scored.filter((_, i) => informative[i]),
    fetched,
  );
  if (ranked.length >= limit) return ranked;
  const common = await fetchBlocks(
    client,
    target,
    scored.filter((_, i) => !informative[i]),
  );
  return rankTerms(ctx, scored, [...fetched, ...common]);
}

interface Block {
  term: string;
  first_pk: string;
  min_pk: string;
  max_pk: string;
  n: number;
  postings: Buffer;
}

interface RankContext {
  client: PoolClient;
  target: KeywordTable;
  filter: { sql: string; params: unknown[] };
  limit: number;
  /** The full tsquery when a term is a phrase: postings know terms, not their order. */
  match: string | undefined;
  rows: number;
  avgdl: number;
  exactDf: ReadonlyMap<string, number>;
}

/** The blocks holding `terms` (an exact term's own, a prefix's every term in its range). */
async function fetchBlocks(client: PoolClient, target: KeywordTable, terms: readonly ScoredTerm[]): Promise<Block[]> {
  if (terms.length === 0) return [];
  const params: unknown[] = [target.corpus, terms.filter((s) => !s.prefix).map((s) => s.term)];
  const ranges = terms
    .filter((s) => s.prefix)
    .map((s) => {
      params.push(s.term, s.term + PREFIX_END);
      return ` OR (term >= $${params.length - 1} AND term < $${params.length})`;
    });
  const result = await client.query<Block>(
    prepared(
      `SELECT term, first_pk, min_pk, max_pk, n, postings FROM keyword_blocks
     WHERE corpus = $1 AND (term = ANY($2::text[])${ranges.join('')})`,
      params,
    ),
  );
  return result.rows;
}

/** BM25 weight of a term of weight `idf` (IDF times its query count) occurring `tf` times in a row of `len` tokens. */
const bm25 = (idf: number, tf: number, len: number, avgdl: number): number =>
  (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avgdl));

/** Ranks the rows holding `terms` from their blocks (`blocks` may hold other terms' too), then filters them. */
async function rankTerms(ctx: RankContext, terms: readonly ScoredTerm[], blocks: readonly Block[]) {
  const mine = blocks.filter((b) => terms.some((s) => (s.prefix ? b.term.startsWith(s.term) : b.term === s.term)));
  let minPk = Number.POSITIVE_INFINITY;
  let maxPk = Number.NEGATIVE_INFINITY;
  let postings = 0;
  for (const b of mine) {
    minPk = Math.min(minPk, Number(b.min_pk));
    maxPk = Math.max(maxPk, Number(b.max_pk));
    postings += b.n;
  }
  if (postings === 0) return [];
  const board = scoreBoard(minPk, maxPk, postings);
  for (const s of terms) {
    const own = mine.filter((b) => (s.prefix ? b.term.startsWith(s.term) : b.term === s.term));
    if (s.prefix) scorePrefix(ctx, s, own, board);
    else {
      const df = ctx.exactDf.get(s.term) ?? 0;
      const idf = s.count * Math.max(Math.log((ctx.rows - df + 0.5) / (df + 0.5)), CLAMPED_IDF);
      for (const b of own)
        forEachPosting(b.postings, Number(b.first_pk), (pk, tf, len) => board.add(pk, bm25(idf, tf, len, ctx.avgdl)));
    }
  }
  return filterRanked(ctx, board);
}

/** A prefix matches several terms of a row, whose frequencies add up before they are weighed; its df is the rows any of them is in. */
function scorePrefix(ctx: RankContext, s: ScoredTerm, blocks: readonly Block[], board: ScoreBoard): void {
  const hits = new Map<number, { tf: number; len: number }>();
  for (const b of blocks) {
    forEachPosting(b.postings, Number(b.first_pk), (pk, tf, len) => {
      const hit = hits.get(pk);
      if (hit) hit.tf += tf;
      else hits.set(pk, { tf, len });
    });
  }
  const df = hits.size;
  const idf = s.count * Math.max(Math.log((ctx.rows - df + 0.5) / (df + 0.5)), CLAMPED_IDF);
  hits.forEach(({ tf, len }, pk) => board.add(pk, bm25(idf, tf, len, ctx.avgdl)));
}

/**
 * The best `limit` rows the filter (and the phrase, if any) lets through, best first. Without either, the best rows.
 * Otherwise the best `limit × 3 + 50` are checked first (as in the SQLite store), then windows eight times larger,
 * each checking only the rows the last one did not, until `limit` pass or every scored row was checked.
 */
async function filterRanked(ctx: RankContext, board: ScoreBoard): Promise<RankedRow[]> {
  const { filter, match, limit } = ctx;
  if (filter.sql === 'true' && match === undefined) return topRows(board, limit);
  const out: RankedRow[] = [];
  let checked = 0;
  for (let window = limit * 3 + 50; ; window *= 8) {
    const ranked = topRows(board, window);
    const slice = ranked.slice(checked);
    const params = [...filter.params, slice.map((row) => row.pk)];
    const phrase = match === undefined ? '' : ` AND x.keyword @@ $${params.push(match)}::tsquery`;
    const passed = await ctx.client.query<{ pk: string }>(
      prepared(
        `SELECT x.pk FROM ${ctx.target.table} x JOIN documents d ON d.pk = x.doc_pk
       WHERE x.pk = ANY($${filter.params.length + 1}::bigint[]) AND (${filter.sql})${phrase}`,
        params,
      ),
    );
    const visible = new Set(passed.rows.map((row) => Number(row.pk)));
    for (const row of slice) {
      if (visible.has(row.pk)) out.push(row);
      if (out.length >= limit) return out;
    }
    checked = ranked.length;
    if (checked >= board.size()) return out;
  }
}
