import type { PoolClient } from 'pg';
import type { ChannelHit } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { aclFilter } from './acl-sql.ts';
import type { EmbedderInfo } from '../ports/document-store.ts';
import { CHUNKS } from './document-writes.ts';
import { rankByBm25 } from './keyword-ranking.ts';
import { vectorLiteral } from './row-mappers.ts';
import { readLogState, type VectorCodes } from './vector-codes.ts';

/**
 * Candidates rescored with exact floats per result asked for, at least RESCORE_MIN: the SQLite store's int8 scan
 * uses the same depth over the same codes, so both stores rank the same candidates.
 */
const RESCORE_FACTOR = 4;
const RESCORE_MIN = 64;
/** Up to this many times the depth, every visible row is ranked exactly (no int8 pass), as in the SQLite store. */
const EXACT_BELOW_DEPTHS = 2;

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
 * The vector channel: cosine similarity over the rows the principal may see, exact. The process's int8 codes of the
 * vectors (vector-codes.ts) are scanned for the best `4 × limit` candidates among the visible documents' rows, and
 * the database ranks those by the float32 distance of the rows themselves (ties by pk), checking the principal's
 * filter again in that statement: the scores are the exact ones, and a row the filter refuses never comes back.
 *
 * Two round trips when the codes are current: the store's embedder with the log's state, then the rescoring. When
 * the log moved (vectors written or deleted, documents' ACLs changed), the rows concerned are read first
 * (vector-codes.ts), so the candidates are picked with the ACLs as they are now. The statements are named (planned
 * once per connection).
 */
export async function vectorSearch(
  c: PoolClient,
  vector: Float32Array,
  keys: readonly string[] | undefined,
  limit: number,
  codes: VectorCodes,
): Promise<ChannelHit[]> {
  const k = Math.floor(limit);
  const first = (
    await c.query<{ value: EmbedderInfo | null; generation: string; version: string; kept_from: string }>(
      named(
        `SELECT m.value, s.generation, s.version, s.kept_from FROM store_meta m, vector_log_state s
         WHERE m.key = 'embedder'`,
        [],
      ),
    )
  ).rows[0];
  const embedder = first?.value;
  if (!first || !embedder) return [];
  if (vector.length !== embedder.dimension) {
    throw new ValidationError(
      `The query vector has dimension ${vector.length}, but the store's vectors (${embedder.id}) have ${embedder.dimension}.`,
      {
        hint: `Embed queries with ${embedder.id}, or run \`evident reindex\` with the configured embedder.`,
      },
    );
  }
  await codes.sync(c, readLogState(first), embedder.dimension);
  const depth = Math.max(k * RESCORE_FACTOR, RESCORE_MIN);
  const picked = codes.candidates(vector, depth, depth * EXACT_BELOW_DEPTHS, keys);
  if (picked.length === 0) return [];
  const acl = aclFilter('d', keys, 3);
  // The limit is written into the statement, so the named statement's plan knows it.
  const rows = await c.query<{ id: string; score: number }>(
    named(
      `SELECT c.id, 1 - (v.embedding <=> $1::vector) AS score
       FROM unnest($2::bigint[]) p(pk) JOIN chunks c ON c.pk = p.pk JOIN documents d ON d.pk = c.doc_pk
       JOIN chunk_vectors v ON v.chunk_pk = c.pk
       WHERE ${acl.sql} ORDER BY score DESC, c.pk LIMIT ${k}`,
      [vectorLiteral(vector), picked, ...acl.params],
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
