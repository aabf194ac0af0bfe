import type { Migration } from './migration.ts';

/**
 * Users' API keys, stored as sha256 hashes only: the store can check a key but never hand one out again.
 * Deleting a user deletes their keys.
 */
export const apiKeys: Migration = {
  version: 5,
  name: 'api-keys',
  up: (db) => {
    db.exec(`
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        user_name TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE,
        key_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX api_keys_user ON api_keys(user_name, created_at);
    `);
  },
};
