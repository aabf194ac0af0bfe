import type { Database } from 'better-sqlite3';
import type { ColumnType, TableData } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';

const MAX_NAME = 60;

/** `Finance/Q1 Report.xlsx` → `finance_q1_report_xlsx`: lowercase ASCII letters, digits and single underscores. */
export function sqlSlug(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * A table name that is a plain identifier (no quoting needed by whoever writes SQL against it), starts with
 * `tbl_`, fits in `MAX_NAME` characters, and is not taken (`taken` compares case-insensitively, as SQLite does).
 */
export function tableSqlName(docId: string, title: string, taken: (name: string) => boolean): string {
  const docSlug = sqlSlug(docId);
  const titleSlug = sqlSlug(title);
  // Workbook sheets are titled `<file stem> / <sheet>`; the stem is already in the doc slug.
  const parts = [docSlug, titleSlug && !docSlug.includes(titleSlug) ? titleSlug : ''].filter(Boolean);
  const base = `tbl_${parts.join('_') || 'table'}`.slice(0, MAX_NAME).replace(/_+$/, '');
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${base.slice(0, MAX_NAME - suffix.length).replace(/_+$/, '')}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * Column names as the user wrote them (quoted in SQL), made unique case-insensitively and never empty, since
 * spreadsheets repeat and omit headers.
 */
export function uniqueColumnNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((raw, index) => {
    const clean = raw.replace(/[\u0000-\u001f]/g, ' ').trim() || `column_${index + 1}`;
    let name = clean;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${clean}_${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}

const SQL_TYPE: Record<ColumnType, string> = { integer: 'INTEGER', real: 'REAL', text: 'TEXT', boolean: 'INTEGER' };

export interface CreatedTable {
  sqlName: string;
  columns: { name: string; type: ColumnType }[];
  rowCount: number;
}

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
  const insert = db.prepare(
    `INSERT INTO ${quoteIdentifier(sqlName)} VALUES (${columns.map(() => '?').join(', ')})`,
  );
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
      throw new ValidationError(`Row ${index + 1} of table "${table.title}" in ${docId} does not match the column types.`, {
        cause: error,
        hint: 'Check the column types the loader inferred against the cell values.',
      });
    }
  });
  return { sqlName, columns, rowCount: table.rows.length };
}

export const dropIngestedTable = (db: Database, sqlName: string): void => {
  db.exec(`DROP TABLE IF EXISTS ${quoteIdentifier(sqlName)}`);
};
