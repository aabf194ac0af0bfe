import type { Migration } from './migration.ts';

/**
 * Long-term memories per user. Every query filters on `user_name`; the vector is a float32 blob scored by
 * brute-force cosine over that one user's rows (a user has tens or hundreds of memories, not millions).
 * `idempotency_key` is unique per user, so a replayed approval (same run + tool call) cannot save twice.
 */
export const memories: Migration = {
  version: 3,
  name: 'memories',
  up: (db) => {
    db.exec(`
      CREATE TABLE memories (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        user_name TEXT NOT NULL,
        text TEXT NOT NULL,
        vector BLOB NOT NULL,
        source TEXT,
        idempotency_key TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (user_name, idempotency_key)
      ) STRICT;
      CREATE INDEX memories_user ON memories(user_name, pk);
    `);
  },
};
