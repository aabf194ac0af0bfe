import type { PoolClient } from 'pg';
import { PREFIX_END, type Corpus, type KeywordDocument, type KeywordTable } from './keyword-index.ts';
import type { ScoredTerm } from './keyword-query.ts';

/** FTS5's bm25() constants. */
export const K1 = 1.2;
export const B = 0.75;
/** FTS5 clamps a non-positive IDF (a term in half the rows or more) to this. */
export const CLAMPED_IDF = 1e-6;
/** Rows containing each scored term: from the statistics for exact terms, counted from the postings for prefixes. */
export async function documentFrequencies(
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
