import type { Migration } from './migration.ts';

/**
 * Assistants (an agent plus its configuration) and their versions. `assistants` holds the latest version's fields
 * beside the owner, so a search reads one table; `assistant_versions` keeps every version (bounded by the store).
 * `acl` is a JSON array of entries (`user:…`, `group:…`, `public`). A run records the assistant and version it ran.
 */
export const assistants: Migration = {
  version: 17,
  name: 'assistants',
  up: (db) => {
    db.exec(`
      CREATE TABLE assistants (
        assistant_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        version INTEGER NOT NULL,
        graph_id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        config TEXT NOT NULL,
        context TEXT NOT NULL,
        metadata TEXT NOT NULL,
        acl TEXT NOT NULL,
        version_created_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX assistants_owner ON assistants (owner);
      CREATE TABLE assistant_versions (
        assistant_id TEXT NOT NULL REFERENCES assistants(assistant_id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        graph_id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        config TEXT NOT NULL,
        context TEXT NOT NULL,
        metadata TEXT NOT NULL,
        acl TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (assistant_id, version)
      );
      ALTER TABLE runs ADD COLUMN assistant_id TEXT;
      ALTER TABLE runs ADD COLUMN assistant_version INTEGER;
    `);
  },
};
