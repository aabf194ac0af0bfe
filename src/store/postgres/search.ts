import type { PoolClient } from 'pg';
import type { ChannelHit } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { aclFilter } from './acl-sql.ts';
import type { EmbedderInfo } from '../ports/document-store.ts';
import { CHUNKS, halfvecOf } from './document-writes.ts';
import { rankByBm25 } from './keyword-ranking.ts';
import { vectorLiteral } from './row-mappers.ts';
import type { VisibleChunkCounts } from './visible-chunks.ts';

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
  const ranked = await rankByBm25(c, CHUNKS, terms, aclFilter('d', keys, 1), limit, 'id');
  return ranked.map((row, i) => ({ chunkId: row.id as string, score: row.score, rank: i + 1 }));
}

/**
 * The vector channel: cosine similarity with the principal filter in the same statement, in one read transaction.
 * An admin, or a reader of many chunks, walks the HNSW index, whose iterative scan keeps walking until the filter has
 * let `limit` rows through; a reader of few chunks (counted from their documents first) gets an exact scan.
 *
 * The walk is over the index's half-precision copies (migration 27) with pgvector's relaxed iterative order, and the
 * rows it finds are ranked by the float32 distance of the rows themselves, ties by pk: the scores are the float ones
 * an exact scan gives. The store's embedder comes with the walk's settings in one statement; the reader's chunk
 * count is kept a few seconds (visible-chunks.ts); the statements are named (planned once per connection: planning
 * the filtered walk cost more than running it on a loaded machine). Two round trips in all for an admin.
 */
export async function vectorSearch(
  c: PoolClient,
  vector: Float32Array,
  keys: readonly string[] | undefined,
  limit: number,
  visible: VisibleChunkCounts,
): Promise<ChannelHit[]> {
  const k = Math.floor(limit);
  // The store's embedder, and the walk's settings for this connection (they concern HNSW walks only, which only
  // this channel makes): one round trip, with no transaction around the search.
  const embedder = (
    await c.query<{ value: EmbedderInfo | null }>(
      named(
        `SELECT value, set_config('hnsw.ef_search', $1, false), set_config('hnsw.iterative_scan', 'relaxed_order', false),
                set_config('hnsw.max_scan_tuples', $2, false)
         FROM store_meta WHERE key = 'embedder'`,
        [String(Math.min(MAX_EF_SEARCH, Math.max(MIN_EF_SEARCH, 2 * k))), String(MAX_SCAN_TUPLES)],
      ),
    )
  ).rows[0]?.value;
  if (!embedder) return [];
  if (vector.length !== embedder.dimension) {
    throw new ValidationError(
      `The query vector has dimension ${vector.length}, but the store's vectors (${embedder.id}) have ${embedder.dimension}.`,
      {
        hint: `Embed queries with ${embedder.id}, or run \`evident reindex\` with the configured embedder.`,
      },
    );
  }
  const literal = vectorLiteral(vector);
  let exact = false;
  if (keys !== undefined) {
    const count = aclFilter('d', keys, 1);
    const n = await visible.get(keys, async () =>
      Number(
        (
          await c.query<{ n: string | null }>(
            named(`SELECT sum(d.chunk_count) AS n FROM documents d WHERE ${count.sql}`, count.params),
          )
        ).rows[0]?.n ?? 0,
      ),
    );
    if (n === 0) return [];
    exact = n <= EXACT_SCAN_MAX_CHUNKS;
  }
  if (exact) {
    const acl = aclFilter('d', keys, 3);
    // Ordered by the score, not by the indexed distance expression, so the planner cannot take the HNSW index.
    const rows = await c.query<{ id: string; score: number }>(
      named(
        `SELECT c.id, 1 - (v.embedding <=> $1::vector) AS score
         FROM documents d JOIN chunks c ON c.doc_pk = d.pk JOIN chunk_vectors v ON v.chunk_pk = c.pk
         WHERE ${acl.sql} ORDER BY score DESC, c.pk LIMIT $2`,
        [literal, k, ...acl.params],
      ),
    );
    return rows.rows.map((row, i) => ({ chunkId: row.id, rank: i + 1, score: Number(row.score) }));
  }
  const half = (expression: string) => halfvecOf(expression, embedder.dimension);
  const walkAcl = aclFilter('d', keys, 2);
  // A relaxed walk may hand rows over slightly out of order: they are kept apart (MATERIALIZED) and sorted after.
  // The limit is written into the statement: a named statement's generic plan, not knowing it, could pick a sort of
  // every row over the index walk.
  const rows = await c.query<{ id: string; score: number }>(
    named(
      `WITH nearest AS MATERIALIZED (
         SELECT c.pk, c.id, v.embedding <=> $1::vector AS distance
         FROM chunk_vectors v JOIN chunks c ON c.pk = v.chunk_pk JOIN documents d ON d.pk = c.doc_pk
         WHERE ${walkAcl.sql} ORDER BY ${half('v.embedding')} <=> ${half('$1::vector')} LIMIT ${k})
       SELECT id, 1 - distance AS score FROM nearest ORDER BY distance, pk`,
      [literal, ...walkAcl.params],
    ),
  );
  return rows.rows.map((row, i) => ({ chunkId: row.id, rank: i + 1, score: Number(row.score) }));
}

const statementNames = new Map<string, string>();
/** A named statement: the vector channel's few statements repeat with every query, so each is planned once per connection. */
function named(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `evident_vector_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}
