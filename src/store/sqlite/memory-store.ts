import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { MemoryHit, MemoryRecord, MemoryStore, MemoryWrite } from '../ports/memory-store.ts';
import { validateMemory } from '../write-validation.ts';
import type { SqliteConnection } from './connection.ts';
import { blobToVector, vectorToBlob } from './vectors/vector-codec.ts';

type Stmt = (sql: string) => Database.Statement;

interface MemoryRow {
  id: string;
  user_name: string;
  text: string;
  source: string | null;
  created_at: string;
}

const COLUMNS = 'id, user_name, text, source, created_at';

const toRecord = (row: MemoryRow): MemoryRecord => ({
  id: row.id,
  user: row.user_name,
  text: row.text,
  ...(row.source === null ? {} : { source: row.source }),
  createdAt: row.created_at,
});

/** Long-term memories on SQLite; every statement filters on the user. */
export function sqliteMemoryStore(conn: SqliteConnection): MemoryStore {
  const stmt: Stmt = (sql) => conn.stmt(sql);
  return {
    async addMemory(memory) {
      conn.assertWritable();
      return conn.guard('save a memory', () => conn.immediate(() => addMemory(stmt, memory)));
    },
    async searchMemories(user, vector, limit) {
      return conn.guard('search memories', () => searchMemories(stmt, user, vector, limit));
    },
    async listMemories(user) {
      return conn.guard('list memories', () => listMemories(stmt, user));
    },
    async deleteMemory(user, id) {
      conn.assertWritable();
      return conn.guard('delete a memory', () => deleteMemory(stmt, user, id));
    },
  };
}

/**
 * Inserts a memory unless the user already has one with the same idempotency key, which is then returned as is.
 * Runs inside the caller's IMMEDIATE transaction, so two processes replaying one approval cannot both insert.
 */
function addMemory(stmt: Stmt, memory: MemoryWrite): { memory: MemoryRecord; created: boolean } {
  validateMemory(memory);
  if (memory.idempotencyKey !== undefined) {
    const existing = stmt(`SELECT ${COLUMNS} FROM memories WHERE user_name = ? AND idempotency_key = ?`).get(
      memory.user,
      memory.idempotencyKey,
    ) as MemoryRow | undefined;
    if (existing) return { memory: toRecord(existing), created: false };
  }
  const row: MemoryRow = {
    id: randomUUID(),
    user_name: memory.user,
    text: memory.text.trim(),
    source: memory.source ?? null,
    created_at: new Date().toISOString(),
  };
  stmt(
    `INSERT INTO memories (id, user_name, text, vector, source, idempotency_key, created_at)
     VALUES (@id, @user_name, @text, @vector, @source, @key, @created_at)`,
  ).run({ ...row, vector: vectorToBlob(memory.vector), key: memory.idempotencyKey ?? null });
  return { memory: toRecord(row), created: true };
}

function searchMemories(stmt: Stmt, user: string, vector: Float32Array, limit: number): MemoryHit[] {
  if (limit <= 0) return [];
  const rows = stmt(`SELECT ${COLUMNS}, vector FROM memories WHERE user_name = ? ORDER BY pk`).all(
    user,
  ) as (MemoryRow & {
    vector: Buffer;
  })[];
  const queryNorm = Math.sqrt(dot(vector, vector));
  const hits: MemoryHit[] = [];
  for (const row of rows) {
    const stored = blobToVector(row.vector);
    // A memory embedded by another embedder is not comparable; it stays listed, just never matched.
    if (stored.length !== vector.length) continue;
    const norms = queryNorm * Math.sqrt(dot(stored, stored));
    hits.push({ ...toRecord(row), score: norms > 0 ? dot(vector, stored) / norms : 0 });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}

const listMemories = (stmt: Stmt, user: string): MemoryRecord[] =>
  (stmt(`SELECT ${COLUMNS} FROM memories WHERE user_name = ? ORDER BY pk`).all(user) as MemoryRow[]).map(toRecord);

const deleteMemory = (stmt: Stmt, user: string, id: string): boolean =>
  stmt('DELETE FROM memories WHERE user_name = ? AND id = ?').run(user, id).changes > 0;

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += (a[d] as number) * (b[d] as number);
  return sum;
}
