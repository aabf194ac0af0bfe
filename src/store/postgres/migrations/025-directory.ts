import type { PostgresMigration } from './migration.ts';

/** Users' `active` flag, SCIM ids and external ids, and groups as directory resources (see the SQLite migration). */
export const directory: PostgresMigration = {
  version: 25,
  name: 'directory',
  up: () => `
    ALTER TABLE users ADD COLUMN active boolean NOT NULL DEFAULT true;
    ALTER TABLE users ADD COLUMN scim_id text UNIQUE;
    ALTER TABLE users ADD COLUMN external_id text;
    ALTER TABLE users ADD COLUMN updated_at timestamptz;
    UPDATE users SET scim_id = gen_random_uuid()::text;
    CREATE INDEX users_name_nocase ON users (lower(name));
    CREATE INDEX users_external_id ON users (external_id);
    CREATE INDEX users_groups ON users USING gin (groups);
    CREATE TABLE directory_groups (
      id text PRIMARY KEY,
      display_name text NOT NULL UNIQUE,
      external_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX directory_groups_external_id ON directory_groups (external_id);
  `,
};
