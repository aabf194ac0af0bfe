import type { PostgresMigration } from './migration.ts';

/**
 * API keys (sha256 hashes only) and long-term memories. A memory's vector has no fixed dimension (memories of an
 * earlier embedder stay listed, never matched); `idempotency_key` is unique per user so a replayed approval
 * cannot save twice.
 */
export const principalsSchema: PostgresMigration = {
  version: 2,
  name: 'principals',
  up: () => `
    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      user_name text NOT NULL REFERENCES users(name) ON DELETE CASCADE,
      key_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX api_keys_user ON api_keys (user_name, created_at, seq);

    CREATE TABLE memories (
      pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id text NOT NULL UNIQUE,
      user_name text NOT NULL,
      text text NOT NULL,
      vector vector NOT NULL,
      source text,
      idempotency_key text,
      created_at timestamptz NOT NULL,
      UNIQUE (user_name, idempotency_key)
    );
    CREATE INDEX memories_user ON memories (user_name, pk);
  `,
};
