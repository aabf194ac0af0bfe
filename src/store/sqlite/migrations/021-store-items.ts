import type { Migration } from './migration.ts';

/**
 * The Store API's items, which are also the agents' long-term memories (one store): a JSON value under a namespace
 * (labels joined by U+001F) and a key, its search index (text + vector; NULL when not indexed), times and TTL.
 * `space` is where permissions attach: `users␟<user>` for a user's own namespace (`personal` = 1), the first label
 * for a shared one, whose owner and ACL are in `store_namespaces` / `store_namespace_acl` (one row per entry, probed
 * by primary key as `document_acl` is). Every memory moves into its user's namespace `["users", <user>, "memories"]`,
 * keeping its id (as both id and key), text, vector, source, idempotency key and time.
 */
export const storeItems: Migration = {
  version: 21,
  name: 'store-items',
  up: (db) => {
    db.exec(`
      CREATE TABLE store_items (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        space TEXT NOT NULL,
        personal INTEGER NOT NULL CHECK (personal IN (0, 1)),
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        text TEXT,
        vector BLOB,
        idempotency_key TEXT,
        ttl_minutes REAL,
        expires_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (namespace, key),
        UNIQUE (space, idempotency_key)
      ) STRICT;
      CREATE INDEX store_items_space ON store_items (space, namespace);
      CREATE INDEX store_items_updated ON store_items (updated_at);
      CREATE INDEX store_items_expiry ON store_items (expires_at) WHERE expires_at IS NOT NULL;

      CREATE TABLE store_namespaces (
        space TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE store_namespace_acl (
        space TEXT NOT NULL REFERENCES store_namespaces (space) ON DELETE CASCADE,
        entry TEXT NOT NULL,
        can_write INTEGER NOT NULL CHECK (can_write IN (0, 1)),
        PRIMARY KEY (space, entry)
      ) STRICT, WITHOUT ROWID;

      INSERT INTO store_items
        (id, space, personal, namespace, key, value, text, vector, idempotency_key, created_at, updated_at)
      SELECT id, 'users' || char(31) || user_name, 1, 'users' || char(31) || user_name || char(31) || 'memories', id,
             CASE WHEN source IS NULL THEN json_object('text', text) ELSE json_object('text', text, 'source', source) END,
             text, vector, idempotency_key, created_at, created_at
      FROM memories ORDER BY pk;
      DROP TABLE memories;
    `);
  },
};
