import type { Database } from 'better-sqlite3';
import { StoreError } from '../../errors/index.ts';
import type { Migration } from './migrations/index.ts';

/** The schema version a file is at: 0 for a new file. */
export function schemaVersion(db: Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table) return 0;
  const row = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as { version: number | null };
  return row.version ?? 0;
}

/**
 * Brings the file up to the last migration, one transaction per step. A file from a newer Evident is refused
 * rather than guessed at; a read-only handle refuses a file that would need migrating.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[],
  options: { location: string; readonly?: boolean },
): { from: number; to: number } {
  const latest = migrations.at(-1)?.version ?? 0;
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`Migration ${migration.name} must have version ${index + 1}.`);
  });
  const from = schemaVersion(db);
  if (from > latest) {
    throw new StoreError(
      `The store ${options.location} has schema version ${from}, newer than this Evident understands (${latest}).`,
      {
        hint: 'Upgrade Evident to open it, or point --db at another file.',
        details: { found: from, supported: latest },
      },
    );
  }
  if (from === latest) return { from, to: latest };
  if (options.readonly) {
    throw new StoreError(
      `The store ${options.location} needs migrating (schema ${from} → ${latest}) but was opened read-only.`,
      {
        hint: 'Open it once without read-only so Evident can migrate it.',
      },
    );
  }
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations.slice(from)) {
    try {
      db.transaction(() => {
        // Another process may have migrated while this one waited for the write lock.
        if (schemaVersion(db) >= migration.version) return;
        migration.up(db);
        record.run(migration.version, migration.name, new Date().toISOString());
      }).immediate();
    } catch (error) {
      throw new StoreError(`Migrating ${options.location} to schema ${migration.version} (${migration.name}) failed.`, {
        cause: error,
        hint: 'The file is left at the last completed version; report this with the cause.',
      });
    }
  }
  return { from, to: latest };
}
