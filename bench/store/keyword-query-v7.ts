import type { PoolClient } from 'pg';
import { MAX_QUERY_TERM_COUNT, parseSearchTerms } from '../../src/store/search-terms.ts';

/**
 * The PostgreSQL keyword channel's ranking as it was before schema 8 (commit 193eb14), kept for the bench only: it runs
 * on today's schema (it reads the postings' term frequencies and joins every candidate row for its length and document),
 * so bench/store/postgres-search.ts can time it interleaved with today's query on the same store.
 */
/**
 * The keyword channel on Postgres. Evident analyses text itself (text/analyzer.ts), so the index stores those
 * terms verbatim: a `tsvector` is built here from the analysed text (never by `to_tsvector`, whose parser would
 * split `ct_2024_0193`, `v1.2` or `$total`; GIN-indexed, it also matches phrases), and a postings table holds each
 * (term, row, term frequency). Ranking is FTS5's BM25, computed in SQL over the postings of the query's terms (each
 * weighed by its query term frequency, as FTS5 weighs a phrase its query repeats) with statistics the store keeps in step with every write (`keyword_terms`, `keyword_totals`): `ts_rank` is not BM25
 * and would rank differently from SQLite.
 */

/** The three keyword-searchable corpora; their statistics are kept apart. */
export const CORPUS = { chunks: 1, summaries: 2, quotes: 3 } as const;
export type Corpus = (typeof CORPUS)[keyof typeof CORPUS];

/** FTS5's bm25() constants. */
const K1 = 1.2;
const B = 0.75;
/** FTS5 clamps a non-positive IDF (a term in half the rows or more) to this. */
const MIN_IDF = 1e-6;

/** Splits like FTS5's `unicode61` with `tokenchars '_$.'`: letters, digits, private use and `_ $ .` make tokens. */
const SEPARATORS = /[^\p{L}\p{N}\p{Co}_$.]+/u;

export const keywordTokens = (text: string): string[] =>
  text
    .split(SEPARATORS)
    .filter(Boolean)
    .map((token) => token.toLowerCase());

/** Quotes a lexeme for tsvector/tsquery input, which takes quoted lexemes verbatim (no parsing, no stemming). */
const quoteLexeme = (lexeme: string): string => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** One query term as tokens: one token is a term; several (only from odd input) must appear as a phrase. */
interface QueryTerm {
  tokens: string[];
  prefix: boolean;
  /** Query term frequency (see SearchTerm). */
  count: number;
}

export function parseQueryTerms(terms: readonly string[]): QueryTerm[] {
  return parseSearchTerms(terms).flatMap(({ term, prefix, count }) => {
    const tokens = keywordTokens(term);
    return tokens.length === 0 ? [] : [{ tokens, prefix, count }];
  });
}

/** The tsquery literal matching any of `terms` (a prefix term's last token as a prefix). */
export function matchQuery(terms: readonly QueryTerm[]): string {
  return terms
    .map(({ tokens, prefix }) => {
      const parts = tokens.map((token, i) => quoteLexeme(token) + (prefix && i === tokens.length - 1 ? ':*' : ''));
      return parts.length === 1 ? parts[0] : `(${parts.join(' <-> ')})`;
    })
    .join(' | ');
}

/** A scored unit: one token, exact or prefix, and how often the query gives it. A phrase is scored by its tokens. */
interface ScoredTerm {
  term: string;
  prefix: boolean;
  count: number;
}

const scoredTerms = (terms: readonly QueryTerm[]): ScoredTerm[] => {
  const seen = new Map<string, ScoredTerm>();
  for (const { tokens, prefix, count } of terms) {
    tokens.forEach((token, i) => {
      const scored = { term: token, prefix: prefix && i === tokens.length - 1, count };
      const key = `${scored.prefix ? '*' : ' '}${token}`;
      const known = seen.get(key);
      if (known) known.count = Math.min(known.count + count, MAX_QUERY_TERM_COUNT);
      else seen.set(key, scored);
    });
  }
  return [...seen.values()];
};

export interface KeywordTable {
  corpus: Corpus;
  /** The table holding `keyword` and `keyword_length`, with `pk` and `doc_pk`. */
  table: string;
}

export interface RankedRow {
  pk: number;
  score: number;
}

/** The upper bound of a prefix range in bytewise order (terms are stored `COLLATE "C"`). */
const PREFIX_END = String.fromCodePoint(0x10ffff);

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
    (n, i) => (scored[i] as ScoredTerm).count * Math.max(Math.log((rows - n + 0.5) / (n + 0.5)), MIN_IDF),
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

/** Rows containing each scored term: from the statistics for exact terms, counted from the postings for prefixes. */
async function documentFrequencies(
  client: PoolClient,
  target: KeywordTable,
  scored: readonly ScoredTerm[],
): Promise<number[]> {
  const exact = scored.filter((s) => !s.prefix).map((s) => s.term);
  const found = new Map<string, number>();
  if (exact.length > 0) {
    const result = await client.query<{ term: string; df: number }>(
      'SELECT term, df FROM keyword_terms WHERE corpus = $1 AND term = ANY($2::text[])',
      [target.corpus, exact],
    );
    for (const row of result.rows) found.set(row.term, Number(row.df));
  }
  const counts: number[] = [];
  for (const s of scored) {
    if (!s.prefix) {
      counts.push(found.get(s.term) ?? 0);
      continue;
    }
    const result = await client.query<{ n: number }>(
      'SELECT count(DISTINCT pk) AS n FROM keyword_postings WHERE corpus = $1 AND term >= $2 AND term < $3',
      [target.corpus, s.term, s.term + PREFIX_END],
    );
    counts.push(Number(result.rows[0]?.n ?? 0));
  }
  return counts;
}

interface ScoringPlan {
  terms: readonly ScoredTerm[];
  /** Parallel to `terms`: each term's IDF times its query count. */
  idf: readonly number[];
  avgdl: number;
  /** The full tsquery when a term is a phrase: postings know terms, not their order. */
  match: string | undefined;
}

async function scoreCandidates(
  client: PoolClient,
  target: KeywordTable,
  plan: ScoringPlan,
  filter: { sql: string; params: unknown[] },
  limit: number,
): Promise<RankedRow[]> {
  const params: unknown[] = [...filter.params];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const corpus = param(target.corpus);
  const postingsOf = (s: ScoredTerm, i: number) => {
    const term = param(s.term);
    const where = s.prefix ? `term >= ${term} AND term < ${param(s.term + PREFIX_END)}` : `term = ${term}`;
    return `SELECT pk, ${i} AS qi, tf FROM keyword_postings WHERE corpus = ${corpus} AND ${where}`;
  };
  const postings = plan.terms.map(postingsOf);
  const idf = param(plan.idf);
  const avgdl = param(Math.max(plan.avgdl, 1e-9));
  const phrase = plan.match === undefined ? '' : ` AND x.keyword @@ ${param(plan.match)}::tsquery`;
  const sql = `
    WITH hits AS (SELECT pk, qi, sum(tf) AS tf FROM (${postings.join(' UNION ALL ')}) p GROUP BY pk, qi)
    SELECT h.pk, sum((${idf}::float8[])[h.qi + 1] * h.tf * ${K1 + 1} / (h.tf + ${K1} * (${1 - B} + ${B} * x.keyword_length / ${avgdl}::float8))) AS score
    FROM hits h JOIN ${target.table} x ON x.pk = h.pk JOIN documents d ON d.pk = x.doc_pk
    WHERE (${filter.sql})${phrase}
    GROUP BY h.pk
    ORDER BY score DESC, h.pk
    LIMIT ${param(limit)}`;
  const result = await client.query<{ pk: string; score: number }>(sql, params);
  return result.rows.map((row) => ({ pk: Number(row.pk), score: Number(row.score) }));
}

/** The keyword channel as the store ran it before schema 8: ranking, then the chunk ids. */
export async function keywordSearchV7(
  client: PoolClient,
  terms: readonly string[],
  keys: readonly string[] | undefined,
  limit: number,
): Promise<string[]> {
  const filter =
    keys === undefined
      ? { sql: 'true', params: [] }
      : { sql: "(d.acl = '{}' OR d.acl && $1::text[])", params: [[...keys]] };
  const ranked = await rankByBm25(client, { corpus: CORPUS.chunks, table: 'chunks' }, terms, filter, limit);
  if (ranked.length === 0) return [];
  const ids = new Map(
    (
      await client.query<{ pk: string; id: string }>('SELECT pk, id FROM chunks WHERE pk = ANY($1::bigint[])', [
        ranked.map((r) => r.pk),
      ])
    ).rows.map((r) => [Number(r.pk), r.id]),
  );
  return ranked.flatMap(({ pk }) => (ids.has(pk) ? [ids.get(pk) as string] : []));
}
