import type { PostgresMigration } from './migration.ts';

/**
 * The Store API's items, which are also the agents' long-term memories (one store); see the SQLite migration for
 * the columns. The ACL of a shared namespace is two arrays matched with `&&` against the principal's keys, as
 * documents' are. Every memory moves into `["users", <user>, "memories"]`, keeping its id, text, vector, source,
 * idempotency key and time. The value is kept as written (text), so both backends return it byte for byte.
 */
export const storeItems: PostgresMigration = {
  version: 22,
  name: 'store-items',
  up: () => `
    CREATE TABLE store_items (
      pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id text NOT NULL UNIQUE,
      space text NOT NULL,
      personal boolean NOT NULL,
      namespace text NOT NULL,
      key text NOT NULL,
      value text NOT NULL,
      text text,
      vector vector,
      idempotency_key text,
      ttl_minutes double precision,
      expires_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (namespace, key),
      UNIQUE (space, idempotency_key)
    );
    CREATE INDEX store_items_space ON store_items (space, namespace);
    CREATE INDEX store_items_updated ON store_items (updated_at);
    CREATE INDEX store_items_expiry ON store_items (expires_at) WHERE expires_at IS NOT NULL;

    CREATE TABLE store_namespaces (
      space text PRIMARY KEY,
      owner text NOT NULL,
      read_acl text[] NOT NULL DEFAULT '{}',
      write_acl text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );

    INSERT INTO store_items
      (id, space, personal, namespace, key, value, text, vector, idempotency_key, created_at, updated_at)
    SELECT id, 'users' || chr(31) || user_name, true, 'users' || chr(31) || user_name || chr(31) || 'memories', id,
           CASE WHEN source IS NULL THEN json_build_object('text', text)::text
                ELSE json_build_object('text', text, 'source', source)::text END,
           text, vector, idempotency_key, created_at, created_at
    FROM memories ORDER BY pk;
    DROP TABLE memories;
  `,
};
