import pg from 'pg';
import { connectionError, parsePostgresUrl } from './connection.ts';

/**
 * Deletes a Postgres store for good: its schema, the schema of its ingested tables and its roles. For
 * scratch stores (evaluation runs, tests); the URL's `?schema=` names the store.
 */
export async function dropPostgresStore(url: string): Promise<void> {
  const target = parsePostgresUrl(url);
  const client = new pg.Client({ connectionString: target.connectionString });
  try {
    await client.connect();
  } catch (error) {
    throw connectionError(target, error);
  }
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${target.schema}" CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS "${target.schema}_tables" CASCADE`);
    await client.query(`DROP ROLE IF EXISTS "${target.schema}_reader"`);
    await client.query(`DROP ROLE IF EXISTS "${target.schema}_usage"`);
    // The tables' own roles (table-roles.ts); their privileges went with the schema.
    const roles = await client.query<{ rolname: string }>(
      `SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1) AND length(rolname) = length($1) + 16`,
      [`${target.schema}_t_`],
    );
    for (const { rolname } of roles.rows) await client.query(`DROP ROLE IF EXISTS "${rolname.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** `url` with its `?schema=` set to `schema`. */
export function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('schema', schema);
  return parsed.toString();
}
