import pg from 'pg';
import { parsePostgresUrl } from '../../src/store/postgres/connection.ts';

/** Bytes a Postgres store occupies: every table, index and TOAST of its schema and of its ingested-table schema. */
export async function postgresStoreBytes(url: string): Promise<number> {
  const target = parsePostgresUrl(url);
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    const result = await client.query<{ bytes: string | null }>(
      `SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname IN ($1, $2) AND c.relkind IN ('r', 'm')`,
      [target.schema, `${target.schema}_tables`],
    );
    return Number(result.rows[0]?.bytes ?? 0);
  } finally {
    await client.end();
  }
}
