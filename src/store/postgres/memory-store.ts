import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import pgvector from 'pgvector';
import type { MemoryHit, MemoryRecord, MemoryStore, MemoryWrite } from '../ports/memory-store.ts';
import { validateMemory } from '../write-validation.ts';
import type { PostgresPool } from './pool.ts';

interface MemoryRow {
  id: string;
  user_name: string;
  text: string;
  source: string | null;
  created_at: Date;
}

const COLUMNS = 'id, user_name, text, source, created_at';

const toRecord = (row: MemoryRow): MemoryRecord => ({
  id: row.id,
  user: row.user_name,
  text: row.text,
  ...(row.source === null ? {} : { source: row.source }),
  createdAt: row.created_at.toISOString(),
});

/** Long-term memories on Postgres; every statement filters on the user. */
export function postgresMemoryStore(pool: PostgresPool): MemoryStore {
  return {
    addMemory: (memory) => pool.withClient('save a memory', (c) => memories.add(c, memory)),
    searchMemories: (user, vector, limit) =>
      pool.withClient('search memories', (c) => memories.search(c, user, vector, limit)),
    listMemories: (user) => pool.withClient('list memories', (c) => memories.list(c, user)),
    deleteMemory: (user, id) => pool.withClient('delete a memory', (c) => memories.delete(c, user, id)),
  };
}

const memories = {
  /** Inserts unless the user has a memory with the same idempotency key; a concurrent twin insert loses to the unique key. */
  async add(client: PoolClient, memory: MemoryWrite): Promise<{ memory: MemoryRecord; created: boolean }> {
    validateMemory(memory);
    const row: MemoryRow = {
      id: randomUUID(),
      user_name: memory.user,
      text: memory.text.trim(),
      source: memory.source ?? null,
      created_at: new Date(),
    };
    const inserted = await client.query<MemoryRow>(
      `INSERT INTO memories (id, user_name, text, vector, source, idempotency_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_name, idempotency_key) DO NOTHING RETURNING ${COLUMNS}`,
      [
        row.id,
        row.user_name,
        row.text,
        pgvector.toSql(Array.from(memory.vector)),
        row.source,
        memory.idempotencyKey ?? null,
        row.created_at,
      ],
    );
    if (inserted.rows[0]) return { memory: toRecord(inserted.rows[0]), created: true };
    const existing = await client.query<MemoryRow>(
      `SELECT ${COLUMNS} FROM memories WHERE user_name = $1 AND idempotency_key = $2`,
      [memory.user, memory.idempotencyKey],
    );
    return { memory: toRecord(existing.rows[0] as MemoryRow), created: false };
  },

  /** Cosine similarity in SQL over this user's memories of the query's dimension (others stay listed, never matched). */
  async search(client: PoolClient, user: string, vector: Float32Array, limit: number): Promise<MemoryHit[]> {
    if (limit <= 0) return [];
    const result = await client.query<MemoryRow & { score: number }>(
      `SELECT ${COLUMNS}, CASE WHEN s.distance = 'NaN' THEN 0 ELSE 1 - s.distance END AS score
       FROM memories m CROSS JOIN LATERAL (SELECT m.vector <=> $2::vector AS distance) s
       WHERE m.user_name = $1 AND vector_dims(m.vector) = $3
       ORDER BY score DESC, m.pk LIMIT $4`,
      [user, pgvector.toSql(Array.from(vector)), vector.length, Math.floor(limit)],
    );
    return result.rows.map((row) => ({ ...toRecord(row), score: Number(row.score) }));
  },

  async list(client: PoolClient, user: string): Promise<MemoryRecord[]> {
    return (
      await client.query<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE user_name = $1 ORDER BY pk`, [user])
    ).rows.map(toRecord);
  },

  async delete(client: PoolClient, user: string, id: string): Promise<boolean> {
    return (
      ((await client.query('DELETE FROM memories WHERE user_name = $1 AND id = $2', [user, id])).rowCount ?? 0) > 0
    );
  },
};
