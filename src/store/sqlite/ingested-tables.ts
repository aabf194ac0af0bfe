import type { Database } from 'better-sqlite3';
import type { ColumnType, TableData } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { quoteIdentifier, tableSqlName, uniqueColumnNames, type CreatedTable } from '../table-names.ts';

const SQL_TYPE: Record<ColumnType, string> = { integer: 'INTEGER', real: 'REAL', text: 'TEXT', boolean: 'INTEGER' };

/**
 * Creates one ingested table as a STRICT SQL table and inserts its rows. Runs inside the caller's transaction:
 * a row that does not fit its column types throws, and the whole document write rolls back.
 */
export function createIngestedTable(db: Database, docId: string, table: TableData): CreatedTable {
  const taken = db.prepare('SELECT 1 FROM sqlite_master WHERE lower(name) = lower(?)');
  const sqlName = tableSqlName(docId, table.title, (name) => taken.get(name) !== undefined);
  const names = uniqueColumnNames(table.columns.map((column) => column.name));
  const columns = table.columns.map((column, index) => ({ name: names[index] as string, type: column.type }));
  if (columns.length === 0) {
    throw new ValidationError(`Table "${table.title}" of ${docId} has no columns.`, {
      hint: 'Give the sheet or CSV a header row.',
    });
  }
  const definitions = columns.map(({ name, type }) => {
    const id = quoteIdentifier(name);
    return type === 'boolean' ? `${id} INTEGER CHECK (${id} IN (0, 1))` : `${id} ${SQL_TYPE[type]}`;
  });
  db.exec(`CREATE TABLE ${quoteIdentifier(sqlName)} (${definitions.join(', ')}) STRICT`);
  const insert = db.prepare(`INSERT INTO ${quoteIdentifier(sqlName)} VALUES (${columns.map(() => '?').join(', ')})`);
  table.rows.forEach((row, index) => {
    if (row.length !== columns.length) {
      throw new ValidationError(
        `Row ${index + 1} of table "${table.title}" in ${docId} has ${row.length} cells, expected ${columns.length}.`,
        { hint: 'Every row must have one cell per column (use null for empty cells).' },
      );
    }
    try {
      insert.run(row.map((cell) => (typeof cell === 'boolean' ? (cell ? 1 : 0) : cell)));
    } catch (error) {
      throw new ValidationError(
        `Row ${index + 1} of table "${table.title}" in ${docId} does not match the column types.`,
        {
          cause: error,
          hint: 'Check the column types the loader inferred against the cell values.',
        },
      );
    }
  });
  return { sqlName, columns, rowCount: table.rows.length };
}

export const dropIngestedTable = (db: Database, sqlName: string): void => {
  db.exec(`DROP TABLE IF EXISTS ${quoteIdentifier(sqlName)}`);
};
