import type { ChannelHit, Principal } from '../../domain/index.ts';
import { principalAclKeys } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { parseSearchTerms } from '../search-terms.ts';
import { aclCondition, aclParams } from './acl-sql.ts';
import { readEmbedder } from './document-writes.ts';
import { ftsMatch } from './fts-query.ts';
import type { SqliteConnection } from './sqlite-connection.ts';
import type { TermStats } from './term-stats.ts';
import type { VectorCache } from './vector-cache.ts';

interface KeywordRow {
  chunkId: string;
  score: number;
  windowRows?: number;
}

/** BM25 in FTS5 over the chunks the principal may see. */
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
  const k = Math.floor(limit);
  const rows = conn.db.transaction(() => {
    // Fast path: rank inside FTS5 with a bounded window, join and filter only the window.
    const informative = termStats.informativeTerms(parsed);
    const window = keys === undefined ? k : k * 3 + 50;
    const windowed = conn.stmt(
      `WITH f AS MATERIALIZED (
         SELECT rowid AS pk, bm25(chunk_fts) AS score FROM chunk_fts WHERE chunk_fts MATCH @match
         ORDER BY score, rowid LIMIT @window)
       SELECT c.id AS chunkId, -f.score AS score, (SELECT count(*) FROM f) AS windowRows
       FROM f JOIN chunks c ON c.pk = f.pk
       WHERE 1 = 1${aclCondition('c.doc_pk', keys)}
       ORDER BY f.score, f.pk LIMIT @limit`,
    ).all({ match: ftsMatch(informative), window, limit: k, ...aclParams(keys) }) as KeywordRow[];
    if (windowed.length >= k) return windowed;
    const complete = informative.length === parsed.length && (windowed[0]?.windowRows ?? window) < window;
    if (complete) return windowed;
    // Too few visible hits in the window, or dropped terms could add some: rank every match, filtered first.
    return conn.stmt(
      `SELECT c.id AS chunkId, -bm25(chunk_fts) AS score
       FROM chunk_fts JOIN chunks c ON c.pk = chunk_fts.rowid
       WHERE chunk_fts MATCH @match${aclCondition('c.doc_pk', keys)}
       ORDER BY bm25(chunk_fts), c.pk LIMIT @limit`,
    ).all({ match: ftsMatch(parsed), limit: k, ...aclParams(keys) }) as KeywordRow[];
  })();
  // bm25() is negative (lower is better); the queries negate it, so higher is better as the port says.
  return rows.map((row, i) => ({ chunkId: row.chunkId, rank: i + 1, score: row.score }));
}

/** Cosine similarity over the in-memory vectors the principal may see, scanned by the SIMD kernel. */
export function vectorSearch(
  conn: SqliteConnection,
  vectors: VectorCache,
  vector: Float32Array,
  principal: Principal,
  limit: number,
): ChannelHit[] {
  conn.assertOpen();
  if (limit <= 0) return [];
  const keys = principalAclKeys(principal);
  // One read transaction: the index generation, the principal's visible documents and the chunk ids all come
  // from the same snapshot, even while another process writes.
  const hits = conn.db.transaction(() => {
    const embedder = readEmbedder(conn);
    if (!embedder) return [];
    if (vector.length !== embedder.dimension) {
      throw new ValidationError(
        `The query vector has dimension ${vector.length}, but the store's vectors (${embedder.id}) have ${embedder.dimension}.`,
        { hint: `Embed queries with ${embedder.id}, or run \`evident reindex\` with the configured embedder.` },
      );
    }
    const index = vectors.current(embedder);
    const rows = vectors.rowsVisibleTo(index, keys);
    if (rows !== 'all' && rows.length === 0) return [];
    const found = index.search(vector, Math.floor(limit), rows === 'all' ? undefined : rows);
    const ids = new Map(
      (
        conn.stmt('SELECT pk, id FROM chunks WHERE pk IN (SELECT value FROM json_each(?))').all(
          JSON.stringify(found.map((hit) => hit.chunkPk)),
        ) as { pk: number; id: string }[]
      ).map((row) => [row.pk, row.id]),
    );
    return found.flatMap((hit) => {
      const chunkId = ids.get(hit.chunkPk);
      return chunkId === undefined ? [] : [{ chunkId, score: hit.score }];
    });
  })();
  vectors.settle();
  return hits.map((hit, i) => ({ chunkId: hit.chunkId, rank: i + 1, score: hit.score }));
}
