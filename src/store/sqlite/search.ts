import type { ChannelHit, Principal } from '../../domain/index.ts';
import { principalAclKeys } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { parseSearchTerms } from '../search-terms.ts';
import { readEmbedder } from './document-writes.ts';
import { rankKeywords } from './keyword-ranking.ts';
import { rankPostings } from './keyword-postings/postings-ranking.ts';
import type { SqliteConnection } from './connection.ts';
import type { TermStats } from './term-stats.ts';
import type { VectorCache } from './vectors/vector-cache.ts';
import type { VectorHit } from './vectors/vector-index.ts';

/**
 * FTS5's BM25 over the chunks the principal may see (the ranking itself: keyword-postings/postings-ranking.ts, and
 * keyword-ranking.ts for prefix and phrase terms).
 */
export function keywordSearch(
  conn: SqliteConnection,
  termStats: TermStats,
  terms: readonly string[],
  principal: Principal,
  limit: number,
): ChannelHit[] {
  conn.assertOpen();
  const parsed = parseSearchTerms(terms);
  if (parsed.length === 0 || limit <= 0) return [];
  const keys = principalAclKeys(principal);
  // One read transaction: the term statistics and every query of the ranking see the same snapshot.
  // The store's own postings rank the query; FTS5 answers the terms they cannot (prefixes, phrases).
  const rows = conn.db.transaction(
    () =>
      rankPostings(conn, termStats, parsed, keys, Math.floor(limit)) ??
      rankKeywords(conn, termStats, parsed, keys, Math.floor(limit)),
  )();
  return rows.map((row, i) => ({ chunkId: row.chunkId, rank: i + 1, score: row.score }));
}

/**
 * Cosine similarity over the in-memory vectors the principal may see, scanned by the SIMD kernel. Where the kernel
 * scans on helper threads, the scan is posted to them and this yields one turn of the event loop before finishing
 * the search, so whatever the caller started beside it (the keyword channel: `HybridSearch` issues it right after
 * this) runs on this thread while the helpers scan.
 */
export async function vectorSearch(
  conn: SqliteConnection,
  vectors: VectorCache,
  vector: Float32Array,
  principal: Principal,
  limit: number,
): Promise<ChannelHit[]> {
  conn.assertOpen();
  if (limit <= 0) return [];
  const keys = principalAclKeys(principal);
  /** The search begun on the principal's visible rows; run inside a read transaction. */
  const begin = () => {
    const embedder = readEmbedder(conn);
    if (!embedder) return undefined;
    if (vector.length !== embedder.dimension) {
      throw new ValidationError(
        `The query vector has dimension ${vector.length}, but the store's vectors (${embedder.id}) have ${embedder.dimension}.`,
        { hint: `Embed queries with ${embedder.id}, or run \`evident reindex\` with the configured embedder.` },
      );
    }
    const index = vectors.current(embedder);
    const rows = vectors.rowsVisibleTo(index, keys);
    if (rows !== 'all' && rows.length === 0) return undefined;
    return {
      generation: conn.generation(),
      search: index.startSearch(vector, Math.floor(limit), rows === 'all' ? undefined : rows),
    };
  };
  // One read transaction: the index generation, the principal's visible documents and the scan's rows come from the
  // same snapshot, even while another process writes.
  const started = conn.db.transaction(begin)();
  if (!started) return [];
  if (started.search.running) await new Promise<void>((resolve) => setImmediate(resolve));
  conn.assertOpen();
  // The chunk ids are read in a snapshot of the same generation: a write committed meanwhile may have removed a chunk
  // or given its pk to another, so the search is then made again, wholly in the new snapshot.
  let hits = conn.db.transaction(() =>
    conn.generation() === started.generation ? chunkIdsOf(conn, started.search.hits()) : undefined,
  )();
  if (hits === undefined) {
    started.search.cancel();
    hits = conn.db.transaction(() => {
      const again = begin();
      return again ? chunkIdsOf(conn, again.search.hits()) : [];
    })();
  }
  vectors.settle();
  return hits.map((hit, i) => ({ chunkId: hit.chunkId, rank: i + 1, score: hit.score }));
}

/** The chunk ids of index hits, in their order; a pk no longer in the store is dropped. */
function chunkIdsOf(conn: SqliteConnection, found: VectorHit[]): { chunkId: string; score: number }[] {
  const ids = new Map(
    (
      conn
        .stmt('SELECT pk, id FROM chunks WHERE pk IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(found.map((hit) => hit.chunkPk))) as { pk: number; id: string }[]
    ).map((row) => [row.pk, row.id]),
  );
  return found.flatMap((hit) => {
    const chunkId = ids.get(hit.chunkPk);
    return chunkId === undefined ? [] : [{ chunkId, score: hit.score }];
  });
}
