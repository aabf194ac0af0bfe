import type { PoolClient } from 'pg';
import type { ChannelHit } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { aclFilter } from './acl-sql.ts';
import { CHUNKS, readEmbedder } from './document-writes.ts';
import { rankByBm25 } from './keyword-ranking.ts';
import { vectorLiteral } from './row-mappers.ts';

/** Postgres cannot cancel an HNSW search past this many candidates; more costs more than it finds. */
const MAX_EF_SEARCH = 1000;
/**
 * Candidate list of the HNSW walk at the least. pgvector's default (40) finds 0.81 of the exact top-10 on SciFact
 * (offline embedder); 100 finds 0.93, 200 finds 0.97 at a few ms more (bench/retrieval/filtered-recall.ts).
 */
const MIN_EF_SEARCH = 200;
/**
 * A principal who may read at most this many chunks is served by an exact scan of them, not by the HNSW walk. A
 * graph walk that must skip most of what it visits (a reader of 1% of the chunks) either stops before it has `limit`
 * hits or visits nearly everything; scanning a few thousand vectors exactly costs less and misses nothing.
 */
export const EXACT_SCAN_MAX_CHUNKS = 20_000;
/** Tuples an iterative HNSW scan may visit before it gives up (pgvector's default is 20,000). */
const MAX_SCAN_TUPLES = 100_000;

/** BM25 over the chunks the principal may see (the ranking itself: keyword-ranking.ts). */
export async function keywordSearch(
  c: PoolClient,
  terms: readonly string[],
  keys: readonly string[] | undefined,
  limit: number,
): Promise<ChannelHit[]> {
  const ranked = await rankByBm25(c, CHUNKS, terms, aclFilter('d', keys, 1), limit);
  if (ranked.length === 0) return [];
  const ids = new Map(
    (
      await c.query<{ pk: number; id: string }>('SELECT pk, id FROM chunks WHERE pk = ANY($1::bigint[])', [
        ranked.map((r) => r.pk),
      ])
    ).rows.map((row) => [Number(row.pk), row.id]),
  );
  return ranked
    .flatMap(({ pk, score }) => (ids.has(pk) ? [{ chunkId: ids.get(pk) as string, score }] : []))
    .map((hit, i) => ({ ...hit, rank: i + 1 }));
}

/**
 * The vector channel: cosine similarity with the principal filter in the same statement, in one read transaction.
 * An admin, or a reader of many chunks, walks the HNSW index, whose iterative scan keeps walking until the filter has
 * let `limit` rows through; a reader of few chunks (counted from their documents first) gets an exact scan.
 */
export async function vectorSearch(
  c: PoolClient,
  vector: Float32Array,
  keys: readonly string[] | undefined,
  limit: number,
): Promise<ChannelHit[]> {
  const embedder = await readEmbedder(c);
  if (!embedder) return [];
  if (vector.length !== embedder.dimension) {
    throw new ValidationError(
      `The query vector has dimension ${vector.length}, but the store's vectors (${embedder.id}) have ${embedder.dimension}.`,
      {
        hint: `Embed queries with ${embedder.id}, or run \`evident reindex\` with the configured embedder.`,
      },
    );
  }
  const k = Math.floor(limit);
  const acl = aclFilter('d', keys, 3);
  const literal = vectorLiteral(vector);
  let exact = false;
  if (keys !== undefined) {
    const visible = await c.query<{ n: string | null }>(
      `SELECT sum(d.chunk_count) AS n FROM documents d WHERE ${aclFilter('d', keys, 1).sql}`,
      acl.params,
    );
    const n = Number(visible.rows[0]?.n ?? 0);
    if (n === 0) return [];
    exact = n <= EXACT_SCAN_MAX_CHUNKS;
  }
  if (exact) {
    // Ordered by the score, not by the indexed distance expression, so the planner cannot take the HNSW index.
    const rows = await c.query<{ id: string; score: number }>(
      `SELECT c.id, 1 - (v.embedding <=> $1::vector) AS score
       FROM documents d JOIN chunks c ON c.doc_pk = d.pk JOIN chunk_vectors v ON v.chunk_pk = c.pk
       WHERE ${acl.sql} ORDER BY score DESC, c.pk LIMIT $2`,
      [literal, k, ...acl.params],
    );
    return rows.rows.map((row, i) => ({ chunkId: row.id, rank: i + 1, score: Number(row.score) }));
  }
  await c.query(`SET LOCAL hnsw.ef_search = ${Math.min(MAX_EF_SEARCH, Math.max(MIN_EF_SEARCH, 2 * k))}`);
  await c.query('SET LOCAL hnsw.iterative_scan = strict_order');
  await c.query(`SET LOCAL hnsw.max_scan_tuples = ${MAX_SCAN_TUPLES}`);
  const rows = await c.query<{ id: string; score: number }>(
    `SELECT c.id, 1 - (v.embedding <=> $1::vector) AS score
     FROM chunk_vectors v JOIN chunks c ON c.pk = v.chunk_pk JOIN documents d ON d.pk = c.doc_pk
     WHERE ${acl.sql} ORDER BY v.embedding <=> $1::vector LIMIT $2`,
    [literal, k, ...acl.params],
  );
  return rows.rows.map((row, i) => ({ chunkId: row.id, rank: i + 1, score: Number(row.score) }));
}
