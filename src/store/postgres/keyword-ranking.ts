import type { PoolClient } from 'pg';
import { PREFIX_END, type KeywordTable } from './keyword-index.ts';
import { matchQuery, parseQueryTerms, scoredTerms, type ScoredTerm } from './keyword-query.ts';
import { B, CLAMPED_IDF, K1, documentFrequencies } from './term-stats.ts';

export interface RankedRow {
  pk: number;
  score: number;
}

/**
 * BM25 over one corpus, best first, ties by pk. `filter` is a condition on the candidate row `x` and its document
 * `d` (the principal filter), applied in the WHERE before ranking and the limit; its parameters start at `$1`.
 *
 * Like the SQLite store's fast path, terms in half the rows or more (IDF clamped to ~1e-6) are left out when other
 * terms remain: they add nothing measurable to a score, yet their postings cover most rows. When that leaves fewer
 * than `limit` rows, the query runs again with every term, so rows matching only such terms still come, in order.
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
    'SELECT rows, tokens FROM keyword_totals WHERE corpus = $1',
    [target.corpus],
  );
  const rows = Number(totals.rows[0]?.rows ?? 0);
  if (rows === 0) return [];
  const avgdl = Number(totals.rows[0]?.tokens ?? 0) / rows;
  const df = await documentFrequencies(client, target, scored);
  // A term the query gives n times counts n times, as in FTS5, whose bm25() sums over the query's phrases.
  const idf = df.map(
    (n, i) => (scored[i] as ScoredTerm).count * Math.max(Math.log((rows - n + 0.5) / (n + 0.5)), CLAMPED_IDF),
  );
  const informative = scored.map((s, i) => s.prefix || (df[i] as number) * 2 < rows);
  const phrases = parsed.some((term) => term.tokens.length > 1);
  const run = (keep: readonly boolean[]) =>
    scoreCandidates(
      client,
      target,
      {
        terms: scored.filter((_, i) => keep[i]),
        idf: idf.filter((_, i) => keep[i]),
        df: df.filter((_, i) => keep[i]),
        rows,
        avgdl,
        match: phrases ? matchQuery(parsed) : undefined,
      },
      filter,
      Math.floor(limit),
    );
  if (informative.every(Boolean) || !informative.some(Boolean)) return run(scored.map(() => true));
  const ranked = await run(informative);
  return ranked.length >= limit ? ranked : run(scored.map(() => true));
}

/** What one ranking pass scores: the terms kept, with their weights and statistics. */
export interface ScoringPlan {
  terms: readonly ScoredTerm[];
  /** Parallel to `terms`: each term's IDF times its query count. */
  idf: readonly number[];
  /** Parallel to `terms`: rows holding each term. */
  df: readonly number[];
  /** Rows in the corpus. */
  rows: number;
  avgdl: number;
  /** The full tsquery when a term is a phrase: postings know terms, not their order. */
  match: string | undefined;
}

/** A term whose postings cover more than this share of the rows is worth skipping (MaxScore), if the rest allow. */
const COMMON_SHARE = 0.02;
/** Looking a posting up by (term, row) costs about this many postings read in a row. */
const PROBE_COST = 2;

/**
 * Ranks the rows holding the plan's terms. Scoring reads the postings alone (term frequency and row length are in the
 * index), so no candidate row is fetched to rank it. As in the SQLite store, the best `window` rows are ranked first
 * without the principal filter, then filtered; only when fewer than `limit` of them pass and more rows matched is
 * every candidate joined to its document and filtered before ranking.
 *
 * MaxScore (Turtle & Flood): a term's score in a row is below idf × (k1 + 1), so a row holding only common terms
 * scores below the sum of their bounds. The rows holding a rarer term are ranked first, the common terms' postings
 * looked up for those rows alone; when the `limit`-th of them beats that sum, no other row can enter and the result is
 * exact. Otherwise the full ranking runs.
 */
export async function scoreCandidates(
  client: PoolClient,
  target: KeywordTable,
  plan: ScoringPlan,
  filter: { sql: string; params: unknown[] },
  limit: number,
): Promise<RankedRow[]> {
  const skipped = commonTerms(plan, limit);
  if (skipped.some(Boolean)) {
    const bound = plan.idf.reduce((sum, idf, i) => sum + (skipped[i] ? idf * (K1 + 1) : 0), 0);
    const ranked = await rank(client, target, plan, filter, limit, skipped);
    const last = ranked.rows[limit - 1];
    if (ranked.rows.length >= limit && last && last.score > bound * (1 + 1e-9)) return ranked.rows;
  }
  const ranked = await rank(client, target, plan, filter, limit, undefined);
  if (ranked.complete) return ranked.rows;
  return (await rank(client, target, plan, filter, limit, undefined, true)).rows;
}

/**
 * Which terms MaxScore may skip: the commonest ones, while the sum of their bounds stays below an estimate of the
 * `limit`-th score (the weight of one occurrence of the rarest term whose rows, with the rarer terms', reach `limit`)
 * and looking them up for the other terms' rows costs less than reading their postings.
 */
function commonTerms(plan: ScoringPlan, limit: number): boolean[] {
  const skipped = plan.terms.map(() => false);
  if (plan.terms.some((term) => term.prefix)) return skipped;
  const order = plan.terms.map((_, i) => i).sort((a, b) => (plan.idf[a] as number) - (plan.idf[b] as number));
  let reached = 0;
  let threshold = 0;
  for (const i of [...order].reverse()) {
    reached += plan.df[i] as number;
    if (reached >= limit) {
      threshold = plan.idf[i] as number;
      break;
    }
  }
  let bound = 0;
  let skippedRows = 0;
  let count = 0;
  for (const i of order.slice(0, -1)) {
    const df = plan.df[i] as number;
    // Candidates are the rows of the terms kept: at most the sum of their document frequencies.
    const restRows = order.reduce((sum, j) => sum + (skipped[j] || j === i ? 0 : (plan.df[j] as number)), 0);
    const next = bound + (plan.idf[i] as number) * (K1 + 1);
    const cheaper = restRows * (count + 1) * PROBE_COST < skippedRows + df;
    if (df < plan.rows * COMMON_SHARE || next >= threshold || restRows < limit || !cheaper) break;
    skipped[i] = true;
    bound = next;
    skippedRows += df;
    count += 1;
  }
  return skipped;
}

async function rank(
  client: PoolClient,
  target: KeywordTable,
  plan: ScoringPlan,
  filter: { sql: string; params: unknown[] },
  limit: number,
  skipped: readonly boolean[] | undefined,
  filterFirst = false,
): Promise<{ rows: RankedRow[]; complete: boolean }> {
  const params: unknown[] = [...filter.params];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const corpus = param(target.corpus);
  const where = (s: ScoredTerm) => {
    const term = param(s.term);
    return s.prefix ? `term >= ${term} AND term < ${param(s.term + PREFIX_END)}` : `term = ${term}`;
  };
  const essential = plan.terms.flatMap((s, i) => (skipped?.[i] ? [] : [{ s, i }]));
  const parts = essential.map(
    ({ s, i }) => `SELECT pk, ${i} AS qi, tf, len FROM keyword_postings WHERE corpus = ${corpus} AND ${where(s)}`,
  );
  let candidates = '';
  if (skipped) {
    // The skipped terms' postings of the candidate rows only, each looked up by (term, row) in the index.
    candidates = `cand AS MATERIALIZED (${essential.map(({ s }) => `SELECT pk FROM keyword_postings WHERE corpus = ${corpus} AND ${where(s)}`).join(' UNION ')}),`;
    plan.terms.forEach((s, i) => {
      if (skipped[i])
        parts.push(
          `SELECT p.pk, ${i} AS qi, p.tf, p.len FROM cand JOIN keyword_postings p ON p.corpus = ${corpus} AND p.${where(s)} AND p.pk = cand.pk`,
        );
    });
  }
  const idf = param(plan.idf);
  const avgdl = param(Math.max(plan.avgdl, 1e-9));
  const weight = (tf: string, len: string, qi: string) =>
    `(${idf}::float8[])[${qi} + 1] * ${tf} * ${K1 + 1} / (${tf} + ${K1} * (${1 - B} + ${B} * ${len} / ${avgdl}::float8))`;
  // A row holds an exact term once, so its postings are weighed one by one and summed per row in one aggregation;
  // a prefix matches several terms of a row, whose frequencies add up before they are weighed.
  const scored = plan.terms.some((term) => term.prefix)
    ? `${candidates}
    hits AS (SELECT pk, qi, sum(tf) AS tf, min(len) AS len FROM (${parts.join(' UNION ALL ')}) p GROUP BY pk, qi),
    scored AS (SELECT pk, sum(${weight('tf', 'len', 'qi')}) AS score FROM hits GROUP BY pk)`
    : `${candidates}
    scored AS (SELECT pk, sum(${weight('tf', 'len', 'qi')}) AS score FROM (${parts.join(' UNION ALL ')}) p GROUP BY pk)`;
  const phrase = plan.match === undefined ? '' : ` AND x.keyword @@ ${param(plan.match)}::tsquery`;
  const limitParam = param(limit);
  const toRows = (rows: { pk: string; score: number }[]) =>
    rows.map((row) => ({ pk: Number(row.pk), score: Number(row.score) }));
  if (filter.sql === 'true' && phrase === '') {
    const result = await client.query<{ pk: string; score: number }>(
      `WITH ${scored} SELECT pk, score FROM scored ORDER BY score DESC, pk LIMIT ${limitParam}`,
      params,
    );
    return { rows: toRows(result.rows), complete: true };
  }
  const joined = `JOIN ${target.table} x ON x.pk = s.pk JOIN documents d ON d.pk = x.doc_pk WHERE (${filter.sql})${phrase}`;
  if (filterFirst) {
    const result = await client.query<{ pk: string; score: number }>(
      `WITH ${scored} SELECT s.pk, s.score FROM scored s ${joined} ORDER BY s.score DESC, s.pk LIMIT ${limitParam}`,
      params,
    );
    return { rows: toRows(result.rows), complete: true };
  }
  const window = limit * 3 + 50;
  const result = await client.query<{ pk: string; score: number; candidates: string }>(
    `WITH ${scored},
     top AS MATERIALIZED (SELECT pk, score FROM scored ORDER BY score DESC, pk LIMIT ${param(window)})
     SELECT s.pk, s.score, (SELECT count(*) FROM top) AS candidates FROM top s ${joined}
     ORDER BY s.score DESC, s.pk LIMIT ${limitParam}`,
    params,
  );
  const complete = result.rows.length >= limit || Number(result.rows[0]?.candidates ?? window) < window;
  return { rows: toRows(result.rows), complete };
}
