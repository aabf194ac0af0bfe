import type { PostgresMigration } from './migration.ts';

/**
 * Assistants (an agent plus its configuration) and their versions. `assistants` holds the latest version's fields
 * beside the owner, so a search reads one table; `assistant_versions` keeps every version (bounded by the store).
 * `acl` holds entries (`user:…`, `group:…`, `public`). A run records the assistant and version it ran.
 */
export const assistants: PostgresMigration = {
  version: 18,
  name: 'assistants',
  up: () => `
    CREATE TABLE assistants (
      assistant_id text PRIMARY KEY,
      owner text NOT NULL,
      version integer NOT NULL,
      graph_id text NOT NULL,
      name text NOT NULL,
      description text,
      config jsonb NOT NULL,
      context jsonb NOT NULL,
      metadata jsonb NOT NULL,
      acl text[] NOT NULL,
      version_created_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX assistants_owner ON assistants (owner);
    CREATE TABLE assistant_versions (
      assistant_id text NOT NULL REFERENCES assistants(assistant_id) ON DELETE CASCADE,
      version integer NOT NULL,
      graph_id text NOT NULL,
      name text NOT NULL,
      description text,
      config jsonb NOT NULL,
      context jsonb NOT NULL,
      metadata jsonb NOT NULL,
      acl text[] NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (assistant_id, version)
    );
    ALTER TABLE runs ADD COLUMN assistant_id text;
    ALTER TABLE runs ADD COLUMN assistant_version integer;
  `,
};
