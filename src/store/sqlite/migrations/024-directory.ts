import { randomUUID } from 'node:crypto';
import type { Migration } from './migration.ts';

/**
 * The directory a provisioning client (SCIM) keeps: users get `active` (an inactive user's keys and sessions stop at
 * once), a stable SCIM id (null once the directory deleted them: the row stays, so what they owned is never
 * inherited by a principal of another name) and the client's `external_id`; groups become resources with an id and
 * a display name. A group's members are the users whose `groups` hold its name, so ACLs keep matching names.
 */
export const directory: Migration = {
  version: 24,
  name: 'directory',
  up: (db) => {
    db.exec(`
      ALTER TABLE users ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE users ADD COLUMN scim_id TEXT;
      ALTER TABLE users ADD COLUMN external_id TEXT;
      ALTER TABLE users ADD COLUMN updated_at TEXT;
    `);
    const setId = db.prepare('UPDATE users SET scim_id = ? WHERE name = ?');
    for (const { name } of db.prepare('SELECT name FROM users').all() as { name: string }[])
      setId.run(randomUUID(), name);
    db.exec(`
      CREATE UNIQUE INDEX users_scim_id ON users(scim_id);
      CREATE INDEX users_name_nocase ON users(lower(name));
      CREATE INDEX users_external_id ON users(external_id);
      CREATE TABLE directory_groups (
        id TEXT PRIMARY KEY,
        display_name TEXT NOT NULL UNIQUE,
        external_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX directory_groups_external_id ON directory_groups(external_id);
    `);
  },
};
