import type { PoolClient } from 'pg';
import { parseFtsTerms } from '../sqlite/fts-query.ts';

/**
 * The keyword channel on Postgres. Evident analyses text itself (retrieval/analyzer.ts), so the index stores those
 * terms verbatim: a `tsvector` is built here from the analysed text (never by `to_tsvector`, whose parser would
 * split `ct_2024_0193`, `v1.2` or `$total`), a query is a `tsquery` literal of the analysed terms, and GIN finds
 * the matches. Ranking is FTS5's BM25, computed in SQL from term statistics the store keeps in step with every
 * write (`keyword_terms`, `keyword_totals`): `ts_rank` is not BM25 and would rank differently from SQLite.
 */

/** The three keyword-searchable corpora; their statistics are kept apart. */
export const CORPUS = { chunks: 1, summaries: 2, quotes: 3 } as const;
export type Corpus = (typeof CORPUS)[keyof typeof CORPUS];

/** FTS5's bm25() constants. */
const K1 = 1.2;
const B = 0.75;
/** FTS5 clamps a non-positive IDF (a term in half the rows or more) to this. */
const MIN_IDF = 1e-6;
/** A tsvector keeps positions up to 16383 and at most 256 per lexeme. */
const MAX_POSITION = 16_383;

/** Splits like FTS5's `unicode61` with `tokenchars '_$.'`: letters, digits, private use and `_ $ .` make tokens. */
const SEPARATORS = /[^\p{L}\p{N}\p{Co}_$.]+/u;

export const keywordTokens = (text: string): string[] =>
  text
    .split(SEPARATORS)
    .filter(Boolean)
    .map((token) => token.toLowerCase());

/** Quotes a lexeme for tsvector/tsquery input, which takes quoted lexemes verbatim (no parsing, no stemming). */
const quoteLexeme = (lexeme: string): string => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

export interface KeywordDocument {
  /** tsvector literal with each term's positions, so term frequency survives. */
  tsvector: string;
  /** Tokens in the text: BM25's document length. */
  length: number;
  /** Distinct terms, for the document-frequency statistics. */
  terms: string[];
}

export function keywordDocument(text: string): KeywordDocument {
  const positions = new Map<string, number[]>();
  const tokens = keywordTokens(text);
  tokens.forEach((token, i) => {
    const list = positions.get(token) ?? [];
    list.push(Math.min(i + 1, MAX_POSITION));
    positions.set(token, list);
  });
  const tsvector = [...positions].map(([lexeme, at]) => `${quoteLexeme(lexeme)}:${[...new Set(at)].join(',')}`).join(' ');
  return { tsvector, length: tokens.length, terms: [...positions.keys()] };
}

/** One query term as tokens: one token is a term; several (only from odd input) must appear as a phrase. */
interface QueryTerm {
  tokens: string[];
  prefix: boolean;
}

export function parseQueryTerms(terms: readonly string[]): QueryTerm[] {
  return parseFtsTerms(terms).flatMap(({ term, prefix }) => {
    const tokens = keywordTokens(term);
    return tokens.length === 0 ? [] : [{ tokens, prefix }];
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

/** A scored unit: one token, exact or prefix. A phrase is scored by its tokens. */
interface ScoredTerm {
  term: string;
  prefix: boolean;
}

const scoredTerms = (terms: readonly QueryTerm[]): ScoredTerm[] => {
  const seen = new Map<string, ScoredTerm>();
  for (const { tokens, prefix } of terms) {
    tokens.forEach((token, i) => {
      const scored = { term: token, prefix: prefix && i === tokens.length - 1 };
      seen.set(`${scored.prefix ? '*' : ' '}${token}`, scored);
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

/**
 * BM25 over one corpus, best first, ties by pk. `filter` is a condition on the candidate row `x` and its document
 * `d` (the principal filter), applied in the WHERE before ranking and the limit; its parameters start at `$1`.
 *
 * Like the SQLite store, terms in half the rows or more (IDF clamped to ~0) do not select candidates when other
 * terms do: they cannot lift a row above one that matches an informative term, yet would make every row a
 * candidate. When that leaves fewer than `limit` rows, the query runs again with every term.
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
  const idf = scored.map((_, i) => Math.max(Math.log((rows - (df[i] as number) + 0.5) / ((df[i] as number) + 0.5)), MIN_IDF));
  const dfOf = (token: string, prefix: boolean) => df[scored.findIndex((s) => s.term === token && s.prefix === prefix)] as number;
  const informative = parsed.filter(({ tokens, prefix }) =>
    prefix || tokens.some((token, i) => dfOf(token, prefix && i === tokens.length - 1) * 2 < rows),
  );
  const run = (match: readonly QueryTerm[]) =>
    scoreCandidates(client, target, matchQuery(match), scored, idf, avgdl, filter, Math.floor(limit));
  if (informative.length === 0 || informative.length === parsed.length) return run(parsed);
  const ranked = await run(informative);
  return ranked.length >= limit ? ranked : run(parsed);
}

/** Rows containing each scored term: from the statistics for exact terms, counted through GIN for prefixes. */
async function documentFrequencies(client: PoolClient, target: KeywordTable, scored: readonly ScoredTerm[]): Promise<number[]> {
  const exact = scored.filter((s) => !s.prefix).map((s) => s.term);
  const found = new Map<string, number>();
  if (exact.length > 0) {
    const result = await client.query<{ term: string; df: string }>(
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
    const result = await client.query<{ n: number }>(`SELECT count(*) AS n FROM ${target.table} WHERE keyword @@ $1::tsquery`, [
      `${quoteLexeme(s.term)}:*`,
    ]);
    counts.push(Number(result.rows[0]?.n ?? 0));
  }
  return counts;
}

async function scoreCandidates(
  client: PoolClient,
  target: KeywordTable,
  match: string,
  scored: readonly ScoredTerm[],
  idf: readonly number[],
  avgdl: number,
  filter: { sql: string; params: unknown[] },
  limit: number,
): Promise<RankedRow[]> {
  const n = filter.params.length;
  const p = (i: number) => `$${n + i}`;
  // Term frequency per query term from the candidate's own tsvector; a prefix term sums every lexeme it covers.
  const sql = `
    WITH q AS (SELECT * FROM unnest(${p(1)}::text[], ${p(2)}::bool[], ${p(3)}::float8[]) AS q(term, prefix, idf))
    SELECT x.pk, s.score
    FROM ${target.table} x JOIN documents d ON d.pk = x.doc_pk
    CROSS JOIN LATERAL (
      SELECT sum(q.idf * m.tf * ${K1 + 1} / (m.tf + ${K1} * (${1 - B} + ${B} * x.keyword_length / ${p(4)}::float8))) AS score
      FROM (
        SELECT q.term, q.prefix, sum(cardinality(l.positions)) AS tf
        FROM unnest(x.keyword) l JOIN q ON l.lexeme = q.term OR (q.prefix AND starts_with(l.lexeme, q.term))
        GROUP BY q.term, q.prefix
      ) m JOIN q ON q.term = m.term AND q.prefix = m.prefix
    ) s
    WHERE x.keyword @@ ${p(5)}::tsquery AND (${filter.sql})
    ORDER BY s.score DESC, x.pk
    LIMIT ${p(6)}`;
  const result = await client.query<{ pk: string; score: number }>(sql, [
    ...filter.params,
    scored.map((s) => s.term),
    scored.map((s) => s.prefix),
    idf,
    Math.max(avgdl, 1e-9),
    match,
    limit,
  ]);
  return result.rows.map((row) => ({ pk: Number(row.pk), score: Number(row.score) }));
}

/**
 * Changes to the term statistics made by one transaction, applied once at its end: one upsert ordered by
 * (corpus, term), so concurrent writers lock statistics rows in the same order and cannot deadlock on them.
 */
export class KeywordStatsDelta {
  private readonly df = new Map<string, number>();
  private readonly totals = new Map<Corpus, { rows: number; tokens: number }>();

  add(corpus: Corpus, doc: Pick<KeywordDocument, 'terms' | 'length'>, sign: 1 | -1 = 1): void {
    for (const term of doc.terms) {
      const key = `${corpus}\u0000${term}`;
      this.df.set(key, (this.df.get(key) ?? 0) + sign);
    }
    const total = this.totals.get(corpus) ?? { rows: 0, tokens: 0 };
    this.totals.set(corpus, { rows: total.rows + sign, tokens: total.tokens + sign * doc.length });
  }

  /** Subtracts the statistics of the stored rows of `table` that `where` selects (rows about to be deleted). */
  async subtractStored(client: PoolClient, target: KeywordTable, where: string, params: unknown[]): Promise<void> {
    const result = await client.query<{ terms: string[]; length: number }>(
      `SELECT tsvector_to_array(keyword) AS terms, keyword_length AS length FROM ${target.table} WHERE ${where}`,
      params,
    );
    for (const row of result.rows) this.add(target.corpus, row, -1);
  }

  async apply(client: PoolClient): Promise<void> {
    const entries = [...this.df]
      .filter(([, delta]) => delta !== 0)
      .map(([key, delta]) => {
        const at = key.indexOf('\u0000');
        return { corpus: Number(key.slice(0, at)), term: key.slice(at + 1), delta };
      })
      .sort((a, b) => a.corpus - b.corpus || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    if (entries.length > 0) {
      await client.query(
        `INSERT INTO keyword_terms (corpus, term, df)
         SELECT u.corpus, u.term, u.df FROM unnest($1::smallint[], $2::text[], $3::bigint[]) AS u(corpus, term, df)
         ORDER BY u.corpus, u.term COLLATE "C"
         ON CONFLICT (corpus, term) DO UPDATE SET df = keyword_terms.df + excluded.df`,
        [entries.map((e) => e.corpus), entries.map((e) => e.term), entries.map((e) => e.delta)],
      );
    }
    for (const corpus of [...this.totals.keys()].sort()) {
      const { rows, tokens } = this.totals.get(corpus) as { rows: number; tokens: number };
      if (rows === 0 && tokens === 0) continue;
      await client.query('UPDATE keyword_totals SET rows = rows + $2, tokens = tokens + $3 WHERE corpus = $1', [corpus, rows, tokens]);
    }
  }
}
