import type { PoolClient } from 'pg';
import { MAX_QUERY_TERM_COUNT, parseSearchTerms } from '../search-terms.ts';
import { scoreCandidates } from './bm25-scoring.ts';

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
export const K1 = 1.2;
export const B = 0.75;
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
  /** Occurrences of each distinct term, parallel to `terms`: the postings' term frequencies. */
  tf: number[];
}

export function keywordDocument(text: string): KeywordDocument {
  const positions = new Map<string, number[]>();
  const tokens = keywordTokens(text);
  tokens.forEach((token, i) => {
    const list = positions.get(token) ?? [];
    list.push(Math.min(i + 1, MAX_POSITION));
    positions.set(token, list);
  });
  const tsvector = [...positions]
    .map(([lexeme, at]) => `${quoteLexeme(lexeme)}:${[...new Set(at)].join(',')}`)
    .join(' ');
  return {
    tsvector,
    length: tokens.length,
    terms: [...positions.keys()],
    tf: [...positions.values()].map((at) => at.length),
  };
}

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
export interface ScoredTerm {
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
export const PREFIX_END = String.fromCodePoint(0x10ffff);

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

/** Adds the postings of freshly inserted rows (their pks, parallel to `docs`). */
export async function insertPostings(
  client: PoolClient,
  corpus: Corpus,
  pks: readonly number[],
  docs: readonly KeywordDocument[],
): Promise<void> {
  const terms: string[] = [];
  const rowPks: number[] = [];
  const tf: number[] = [];
  const len: number[] = [];
  docs.forEach((doc, i) => {
    doc.terms.forEach((term, t) => {
      terms.push(term);
      rowPks.push(pks[i] as number);
      tf.push(doc.tf[t] as number);
      len.push(doc.length);
    });
  });
  if (terms.length === 0) return;
  await client.query(
    'INSERT INTO keyword_postings (corpus, term, pk, tf, len) SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::int[], $5::int[])',
    [corpus, terms, rowPks, tf, len],
  );
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

  /** Takes the stored rows of `table` that `where` selects (rows about to be deleted) out of the statistics and postings. */
  async subtractStored(client: PoolClient, target: KeywordTable, where: string, params: unknown[]): Promise<void> {
    const result = await client.query<{ pk: number; terms: string[]; length: number }>(
      `SELECT pk, tsvector_to_array(keyword) AS terms, keyword_length AS length FROM ${target.table} WHERE ${where}`,
      params,
    );
    if (result.rows.length === 0) return;
    for (const row of result.rows) this.add(target.corpus, row, -1);
    await client.query(
      'DELETE FROM keyword_postings WHERE corpus = $1 AND term = ANY($2::text[]) AND pk = ANY($3::bigint[])',
      [target.corpus, [...new Set(result.rows.flatMap((row) => row.terms))], result.rows.map((row) => row.pk)],
    );
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
      await client.query('UPDATE keyword_totals SET rows = rows + $2, tokens = tokens + $3 WHERE corpus = $1', [
        corpus,
        rows,
        tokens,
      ]);
    }
  }
}
