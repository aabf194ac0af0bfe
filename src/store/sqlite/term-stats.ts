import type { SearchTerm } from '../search-terms.ts';
import type { SqliteConnection } from './sqlite-connection.ts';

const TERM_STATS_CACHE_SIZE = 50_000;

/** Chunk total and per-term document frequencies, read from the FTS5 vocabulary and valid for one generation. */
export class TermStats {
  private stats: { generation: number; total: number; df: Map<string, number> } = { generation: -1, total: 0, df: new Map() };

  constructor(private readonly conn: SqliteConnection) {}

  /**
   * The query terms worth scoring. FTS5 clamps the IDF of a term found in half the chunks or more to 1e-6, so
   * such a term changes no ranking among chunks that match another term, yet costs a bm25() call per chunk it
   * matches (tens of ms at 100k chunks). Those terms are left out of the fast path; prefix terms always stay.
   */
  informativeTerms(terms: readonly SearchTerm[]): SearchTerm[] {
    if (terms.length < 2) return [...terms];
    const generation = this.conn.generation();
    if (this.stats.generation !== generation) {
      const row = this.conn.stmt('SELECT coalesce(sum(chunk_count), 0) AS total FROM documents').get() as { total: number };
      this.stats = { generation, total: row.total, df: new Map() };
    }
    const { total, df } = this.stats;
    const lookup = this.conn.stmt('SELECT doc FROM chunk_fts_vocab WHERE term = ?');
    const kept = terms.filter(({ term, prefix }) => {
      if (prefix) return true;
      let count = df.get(term);
      if (count === undefined) {
        count = (lookup.get(term) as { doc: number } | undefined)?.doc ?? 0;
        if (df.size >= TERM_STATS_CACHE_SIZE) df.clear();
        df.set(term, count);
      }
      return count * 2 < total;
    });
    return kept.length > 0 ? kept : [...terms];
  }
}
