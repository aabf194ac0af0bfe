import type { PoolClient } from 'pg';
import { PendingPostings } from './keyword-blocks.ts';
import type { Corpus, KeywordDocument, KeywordTable } from './keyword-index.ts';

/** FTS5's bm25() constants. */
export const K1 = 1.2;
export const B = 0.75;
/** FTS5 clamps a non-positive IDF (a term in half the rows or more) to this. */
export const CLAMPED_IDF = 1e-6;
/** Rows containing each of `terms` (exact terms), from the statistics. */
export async function documentFrequencies(
  client: PoolClient,
  target: KeywordTable,
  terms: readonly string[],
): Promise<number[]> {
  if (terms.length === 0) return [];
  const result = await client.query<{ term: string; df: number }>({
    name: 'evident_bm25_df',
    text: 'SELECT term, df FROM keyword_terms WHERE corpus = $1 AND term = ANY($2::text[])',
    values: [target.corpus, terms],
  });
  const found = new Map(result.rows.map((row) => [row.term, Number(row.df)]));
  return terms.map((term) => found.get(term) ?? 0);
}

/**
 * Changes to the term statistics and postings made by one transaction, applied once at its end: the postings'
 * blocks (keyword-blocks.ts), then one upsert of the statistics ordered by (corpus, term), so concurrent writers lock
 * blocks and statistics rows in the same order and cannot deadlock on them.
 */
export class KeywordStatsDelta {
  private readonly df = new Map<string, number>();
  private readonly postings = new PendingPostings();
  private readonly totals = new Map<Corpus, { rows: number; tokens: number }>();

  add(corpus: Corpus, doc: Pick<KeywordDocument, 'terms' | 'length'>, sign: 1 | -1 = 1): void {
    for (const term of doc.terms) {
      const key = `${corpus}\u0000${term}`;
      this.df.set(key, (this.df.get(key) ?? 0) + sign);
    }
    const total = this.totals.get(corpus) ?? { rows: 0, tokens: 0 };
    this.totals.set(corpus, { rows: total.rows + sign, tokens: total.tokens + sign * doc.length });
  }

  /** The postings of freshly inserted rows (their pks, parallel to `docs`), written by `apply`. */
  addPostings(corpus: Corpus, pks: readonly number[], docs: readonly KeywordDocument[]): void {
    this.postings.add(corpus, pks, docs);
  }

  /** Takes the stored rows of `table` that `where` selects (rows about to be deleted) out of the statistics and postings. */
  async subtractStored(client: PoolClient, target: KeywordTable, where: string, params: unknown[]): Promise<void> {
    const result = await client.query<{ pk: number; terms: string[]; length: number }>(
      `SELECT pk, tsvector_to_array(keyword) AS terms, keyword_length AS length FROM ${target.table} WHERE ${where}`,
      params,
    );
    if (result.rows.length === 0) return;
    for (const row of result.rows) this.add(target.corpus, row, -1);
    this.postings.remove(
      target.corpus,
      result.rows.map((row) => ({ pk: Number(row.pk), terms: row.terms })),
    );
  }

  async apply(client: PoolClient): Promise<void> {
    await this.postings.apply(client);
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
