import type { PoolClient } from 'pg';
import type { ColumnType, TableData } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { quoteIdentifier, tableSqlName, uniqueColumnNames, type CreatedTable } from '../table-names.ts';
import type { SchemaNames } from './migrations/index.ts';
import { createTableRole, dropTableRole } from './table-roles.ts';

/** Booleans are 0/1 integers, as on SQLite, so the same table SQL (`WHERE paid = 1`) runs on both backends. */
const SQL_TYPE: Record<ColumnType, string> = {
  integer: 'bigint',
  real: 'double precision',
  text: 'text',
  boolean: 'smallint',
};
/** Postgres truncates identifiers at 63 bytes; names are cut first so uniqueness holds after truncation. */
const MAX_COLUMN_BYTES = 56;
/** Bind parameters per INSERT stay well under Postgres's 65535. */
const MAX_PARAMS = 30_000;

const cutToBytes = (name: string): string => {
  let out = name;
  while (Buffer.byteLength(out, 'utf8') > MAX_COLUMN_BYTES) out = out.slice(0, -1);
  return out;
};

/**
 * Creates one ingested table in the store's table schema, readable by its reader role and its own (table-roles.ts),
 * and inserts its rows.
 * Runs inside the caller's transaction: a row that does not fit its column types throws and the document write
 * rolls back. The caller holds the table-name lock, so two writers cannot pick the same name.
 */
export async function createIngestedTable(
  client: PoolClient,
  names: SchemaNames,
  docId: string,
  table: TableData,
): Promise<CreatedTable> {
  const existing = await client.query<{ name: string }>(
    'SELECT lower(tablename) AS name FROM pg_tables WHERE schemaname = $1',
    [names.tables],
  );
  const taken = new Set(existing.rows.map((row) => row.name));
  const sqlName = tableSqlName(docId, table.title, (name) => taken.has(name.toLowerCase()));
  const columnNames = uniqueColumnNames(table.columns.map((column) => cutToBytes(column.name)));
  const columns = table.columns.map((column, index) => ({ name: columnNames[index] as string, type: column.type }));
  if (columns.length === 0) {
    throw new ValidationError(`Table "${table.title}" of ${docId} has no columns.`, {
      hint: 'Give the sheet or CSV a header row.',
    });
  }
  const qualified = `${quoteIdentifier(names.tables)}.${quoteIdentifier(sqlName)}`;
  const definitions = columns.map(({ name, type }) => {
    const id = quoteIdentifier(name);
    return type === 'boolean' ? `${id} smallint CHECK (${id} IN (0, 1))` : `${id} ${SQL_TYPE[type]}`;
  });
  await client.query(`CREATE TABLE ${qualified} (${definitions.join(', ')})`);
  await client.query(`GRANT SELECT ON ${qualified} TO ${quoteIdentifier(names.reader)}`);
  await createTableRole(client, names, sqlName);

  table.rows.forEach((row, index) => {
    if (row.length !== columns.length) {
      throw new ValidationError(
        `Row ${index + 1} of table "${table.title}" in ${docId} has ${row.length} cells, expected ${columns.length}.`,
        {
          hint: 'Every row must have one cell per column (use null for empty cells).',
        },
      );
    }
  });
  const perBatch = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let start = 0; start < table.rows.length; start += perBatch) {
    const batch = table.rows.slice(start, start + perBatch);
    const values = batch.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
    const params = batch.flatMap((row) => row.map((cell) => (typeof cell === 'boolean' ? (cell ? 1 : 0) : cell)));
    try {
      await client.query(`INSERT INTO ${qualified} VALUES ${values.join(', ')}`, params);
    } catch (error) {
      throw new ValidationError(
        `A row of table "${table.title}" in ${docId} (rows ${start + 1}–${start + batch.length}) does not match the column types.`,
        {
          cause: error,
          hint: 'Check the column types the loader inferred against the cell values.',
        },
      );
    }
  }
  return { sqlName, columns, rowCount: table.rows.length };
}

export async function dropIngestedTable(client: PoolClient, names: SchemaNames, sqlName: string): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${quoteIdentifier(names.tables)}.${quoteIdentifier(sqlName)}`);
  await dropTableRole(client, names, sqlName);
}
