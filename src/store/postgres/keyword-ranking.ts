import type { PoolClient } from 'pg';
import { PREFIX_END, type KeywordTable } from './keyword-index.ts';
import { matchQuery, parseQueryTerms, scoredTerms, type ScoredTerm } from './keyword-query.ts';
import { scoreBoard, topRows, type RankedRow, type ScoreBoard } from './keyword-scores.ts';
import { forEachPosting } from './posting-codec.ts';
import { B, CLAMPED_IDF, K1 } from './term-stats.ts';

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
  /** A column of the target's rows to return with each ranked row (read only for the rows returned). */
  idColumn?: string,
): Promise<RankedRow[]> {
  const parsed = parseQueryTerms(terms);
  if (parsed.length === 0 || limit <= 0) return [];
  const scored = scoredTerms(parsed);
  const exact = scored.filter((s) => !s.prefix).map((s) => s.term);
  const first = await readTermsAndBlocks(client, target, scored);
  const { rows } = first;
  if (rows === 0) return [];
  const avgdl = Math.max(first.tokens / rows, 1e-9);
  const exactDf = new Map(exact.map((term) => [term, first.df.get(term) ?? 0] as const));
  const informative = scored.map((s) => s.prefix || (exactDf.get(s.term) as number) * 2 < rows);
  const match = parsed.some((term) => term.tokens.length > 1) ? matchQuery(parsed) : undefined;
  const fetched = first.blocks;
  const ctx = { client, target, filter, limit: Math.floor(limit), match, rows, avgdl, exactDf, idColumn };
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

/**
 * One round trip for what every query needs first: the corpus's totals, the exact terms' document frequencies, and
 * the blocks of the terms ranked first: the informative ones (prefixes, and exact terms in fewer than half the rows),
 * or every term when none is informative. A common term's blocks come later, and only if the others fall short.
 * The terms to fetch are one array (in the index's collation), so the blocks are read by index ranges, not scanned.
 */
async function readTermsAndBlocks(
  client: PoolClient,
  target: KeywordTable,
  terms: readonly ScoredTerm[],
): Promise<{ rows: number; tokens: number; df: Map<string, number>; blocks: Block[] }> {
  const exact = terms.filter((s) => !s.prefix).map((s) => s.term);
  const prefixes = terms.filter((s) => s.prefix);
  const params: unknown[] = [target.corpus, exact];
  const ranges = prefixes.map((s) => {
    params.push(s.term, s.term + PREFIX_END);
    return ` OR (b.term >= $${params.length - 1} AND b.term < $${params.length})`;
  });
  // Without a prefix term, the exact terms are all fetched when none of them is informative.
  const everyExact = prefixes.length > 0 ? 'false' : 'NOT EXISTS (SELECT 1 FROM q AS o WHERE o.informative)';
  const result = await client.query<{
    kind: number;
    term: string | null;
    a: string;
    b: string | null;
    c: string | null;
    n: number | null;
    postings: Buffer | null;
  }>(
    prepared(
      `WITH t AS (SELECT rows, tokens FROM keyword_totals WHERE corpus = $1),
            f AS (SELECT term, df FROM keyword_terms WHERE corpus = $1 AND term = ANY($2::text[])),
            q AS (SELECT u.term, coalesce(f.df, 0) * 2 < t.rows AS informative
                  FROM unnest($2::text[]) AS u(term) CROSS JOIN t LEFT JOIN f ON f.term = u.term)
       SELECT 0 AS kind, NULL AS term, rows AS a, tokens AS b, NULL::bigint AS c, NULL::integer AS n, NULL::bytea AS postings FROM t
       UNION ALL SELECT 1, term, df, NULL, NULL, NULL, NULL FROM f
       UNION ALL SELECT 2, b.term, b.first_pk, b.min_pk, b.max_pk, b.n, b.postings FROM keyword_blocks b
         WHERE b.corpus = $1 AND EXISTS (SELECT 1 FROM t)
           AND (b.term = ANY(ARRAY(SELECT q.term COLLATE "C" FROM q WHERE q.informative OR ${everyExact}))${ranges.join('')})`,
      params,
    ),
  );
  let rows = 0;
  let tokens = 0;
  const df = new Map<string, number>();
  const blocks: Block[] = [];
  for (const row of result.rows) {
    if (row.kind === 0) {
      rows = Number(row.a);
      tokens = Number(row.b ?? 0);
    } else if (row.kind === 1) df.set(row.term as string, Number(row.a));
    else
      blocks.push({
        term: row.term as string,
        first_pk: row.a,
        min_pk: row.b as string,
        max_pk: row.c as string,
        n: row.n as number,
        postings: row.postings as Buffer,
      });
  }
  return { rows, tokens, df, blocks };
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
  idColumn: string | undefined;
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
 * each checking only the rows the last one did not, until `limit` pass or every scored row was checked. Each window
 * is one statement that returns the rows passing, best first, with `idColumn` read for those rows only.
 */
async function filterRanked(ctx: RankContext, board: ScoreBoard): Promise<RankedRow[]> {
  const { filter, match, limit, idColumn } = ctx;
  if (filter.sql === 'true' && match === undefined) return withIds(ctx, topRows(board, limit));
  const out: RankedRow[] = [];
  let checked = 0;
  for (let window = limit * 3 + 50; ; window *= 8) {
    const ranked = topRows(board, window);
    const slice = ranked.slice(checked);
    const params = [...filter.params, slice.map((row) => row.pk)];
    const pks = `$${params.length}::bigint[]`;
    const phrase = match === undefined ? '' : ` AND x.keyword @@ $${params.push(match)}::tsquery`;
    const wanted = `$${params.push(limit - out.length)}::integer`;
    // The inner query needs only the rows' documents (an index-only read of chunks_pk_doc); the outer one reads
    // the returned rows' ids.
    const passing = `SELECT r.pk, r.o FROM unnest(${pks}) WITH ORDINALITY AS r(pk, o)
         JOIN ${ctx.target.table} x ON x.pk = r.pk JOIN documents d ON d.pk = x.doc_pk
         WHERE (${filter.sql})${phrase} ORDER BY r.o LIMIT ${wanted}`;
    const passed = await ctx.client.query<{ pk: string; id?: string }>(
      prepared(
        idColumn === undefined
          ? passing
          : `SELECT p.pk, y.${idColumn} AS id FROM (${passing}) p JOIN ${ctx.target.table} y ON y.pk = p.pk ORDER BY p.o`,
        params,
      ),
    );
    const visible = new Map(passed.rows.map((row) => [Number(row.pk), row.id]));
    for (const row of slice) {
      if (visible.has(row.pk)) {
        const id = visible.get(row.pk);
        out.push(id === undefined ? row : { ...row, id });
      }
      if (out.length >= limit) return out;
    }
    checked = ranked.length;
    if (checked >= board.size()) return out;
  }
}

/** `rows` with their `idColumn` (when asked for), in one statement; a row gone since it was ranked is left out. */
async function withIds(ctx: RankContext, rows: RankedRow[]): Promise<RankedRow[]> {
  if (ctx.idColumn === undefined || rows.length === 0) return rows;
  const result = await ctx.client.query<{ pk: string; id: string }>(
    prepared(`SELECT pk, ${ctx.idColumn} AS id FROM ${ctx.target.table} WHERE pk = ANY($1::bigint[])`, [
      rows.map((row) => row.pk),
    ]),
  );
  const ids = new Map(result.rows.map((row) => [Number(row.pk), row.id]));
  return rows.flatMap((row) => {
    const id = ids.get(row.pk);
    return id === undefined ? [] : [{ ...row, id }];
  });
}
