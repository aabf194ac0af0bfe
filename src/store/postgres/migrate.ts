import type { PoolClient } from 'pg';
import { StoreError } from '../../errors/index.ts';
import type { PostgresMigration, SchemaNames } from './migrations/index.ts';

/**
 * Brings the store's schema up to the last migration, one transaction per step, under an advisory lock so that
 * processes opening a new database at once migrate it exactly once. A schema from a newer Evident is refused.
 */
export async function migratePostgres(
  client: PoolClient,
  migrations: readonly PostgresMigration[],
  names: SchemaNames,
  location: string,
): Promise<{ from: number; to: number }> {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`Migration ${migration.name} must have version ${index + 1}.`);
  });
  const latest = migrations.at(-1)?.version ?? 0;
  const lockKey = `evident-migrate:${names.schema}`;
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockKey]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${names.schema}"`);
    await client.query(`CREATE TABLE IF NOT EXISTS "${names.schema}".schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const current = await client.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM "${names.schema}".schema_migrations`,
    );
    const from = current.rows[0]?.version ?? 0;
    if (from > latest) {
      throw new StoreError(
        `The store ${location} has schema version ${from}, newer than this Evident understands (${latest}).`,
        {
          hint: 'Upgrade Evident to open it, or use another schema (?schema= in the database URL).',
          details: { found: from, supported: latest },
        },
      );
    }
    for (const migration of migrations.slice(from)) {
      try {
        await client.query('BEGIN');
        await client.query(migration.up(names));
        await client.query(`INSERT INTO "${names.schema}".schema_migrations (version, name) VALUES ($1, $2)`, [
          migration.version,
          migration.name,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new StoreError(
          `Migrating ${location} to schema ${migration.version} (${migration.name}) failed: ${(error as Error).message}.`,
          {
            cause: error,
            hint: 'The database is left at the last completed version; check that the user may create schemas and roles, and report this with the cause.',
          },
        );
      }
    }
    return { from, to: latest };
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]);
  }
}
