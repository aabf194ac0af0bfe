import { createHash, randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { quoteIdentifier } from '../table-names.ts';
import type { SchemaNames } from './migrations/index.ts';

/**
 * The server, not the query text, decides which ingested tables a table query reads. Every ingested table has a role
 * of its own that may select from it and nothing else; a member's query runs as a role made for that query alone, in
 * its transaction (rolled back with it), that is a member of exactly the roles of the tables the member may read at
 * that moment. Whatever the statement does — a join, a subquery, a function that runs SQL text of its own (`ts_stat`,
 * `query_to_xml`) — runs as that role, and the server denies the rest. Admins run as the reader role, which may read
 * every ingested table. Creating roles needs the primary and a connection role with CREATEROLE (or a superuser).
 */

/** The role that may read one ingested table (an MD5 of its SQL name keeps the role name within 63 bytes). */
export const tableRoleName = (names: Pick<SchemaNames, 'schema'>, sqlName: string): string =>
  `${names.schema}_t_${createHash('md5').update(sqlName).digest('hex').slice(0, 16)}`;

/** The role that may look the ingested tables' schema up, which every query role is a member of. */
export const schemaUsageRoleName = (names: Pick<SchemaNames, 'schema'>): string => `${names.schema}_usage`;

/** Creates (or keeps) the role of a table the caller's transaction just created, and lets it read that table. */
export async function createTableRole(client: PoolClient, names: SchemaNames, sqlName: string): Promise<void> {
  const role = tableRoleName(names, sqlName);
  await client.query(
    `DO $$ BEGIN CREATE ROLE ${quoteIdentifier(role)} NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
  );
  await client.query(
    `GRANT SELECT ON ${quoteIdentifier(names.tables)}.${quoteIdentifier(sqlName)} TO ${quoteIdentifier(role)}`,
  );
}

/** Drops a dropped table's role (the table's drop took its privilege with it). */
export async function dropTableRole(client: PoolClient, names: SchemaNames, sqlName: string): Promise<void> {
  await client.query(`DROP ROLE IF EXISTS ${quoteIdentifier(tableRoleName(names, sqlName))}`);
}

/**
 * Makes the rest of the caller's open transaction run as a principal's query role: the reader role for `all`, else a
 * role of this transaction only, member of the schema's usage role and of the listed tables' roles. Then read-only.
 */
export async function assumeQueryRole(
  client: PoolClient,
  names: SchemaNames,
  tables: readonly string[] | 'all',
): Promise<void> {
  if (tables === 'all') {
    await client.query('SET TRANSACTION READ ONLY');
    await client.query(`SET LOCAL ROLE ${quoteIdentifier(names.reader)}`);
    return;
  }
  const role = `${names.schema}_q_${randomBytes(8).toString('hex')}`;
  const memberOf = [schemaUsageRoleName(names), ...new Set(tables.map((table) => tableRoleName(names, table)))];
  await client.query(
    `CREATE ROLE ${quoteIdentifier(role)} NOLOGIN IN ROLE ${memberOf.map(quoteIdentifier).join(', ')}`,
  );
  // SET ROLE needs the session's user to be a member of the role it sets.
  await client.query(`GRANT ${quoteIdentifier(role)} TO CURRENT_USER`);
  await client.query('SET TRANSACTION READ ONLY');
  await client.query(`SET LOCAL ROLE ${quoteIdentifier(role)}`);
}
