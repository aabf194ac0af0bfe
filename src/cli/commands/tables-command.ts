import type { Command } from 'commander';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { ValidationError } from '../../errors/index.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

/** A cell as the terminal shows it: NULL for a missing value, a byte count for bytes. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  return String(value);
}

export function registerTablesCommand(program: Command, io: CliIo): void {
  const group = program
    .command('tables')
    .description('SQL tables made from ingested CSV and XLSX sheets and from tables found in PDFs');
  group
    .command('query')
    .description(
      'Run one read-only SELECT over the tables the principal may see (the agents’ table_query, with the tables.* limits)',
    )
    .argument('<sql>', 'one SELECT (or WITH … SELECT); name tables by the sql_name `tables list` shows')
    .option('--as <user>', 'query as this stored user')
    .option('--groups <a,b>', 'query as an ad-hoc member of these groups')
    .option('--json', 'print {columns, rows, truncated} as JSON')
    .action(async (sql: string, flags: PrincipalFlags & { json?: boolean }, command: Command) => {
      // The SQL guard and the table tool load with this command only, not with every CLI start.
      const [{ DEFAULT_TABLE_QUERY_LIMITS, tableQueryInputSchema }, { MAX_TABLE_QUERY_CHARS }, { auditedTableQuery }] =
        await Promise.all([
          import('../../agent/core/tools/table-query.ts'),
          import('../../store/sql-guard.ts'),
          import('../../audit/audited-reads.ts'),
        ]);
      const input = tableQueryInputSchema.safeParse({ sql });
      if (!input.success) {
        throw new ValidationError(
          `The SQL is empty or longer than ${MAX_TABLE_QUERY_CHARS.toLocaleString('en-US')} characters.`,
          {
            hint: "Pass one SELECT statement, e.g. evident tables query 'SELECT * FROM <sql_name> LIMIT 5'.",
          },
        );
      }
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const principal = await principalFromFlags(evident, flags);
        const result = await auditedTableQuery(evident, {
          sql: input.data.sql,
          principal,
          limits: { ...DEFAULT_TABLE_QUERY_LIMITS, ...evident.config.tables },
          surface: 'cli',
        });
        if (flags.json)
          return io.out(wireJson({ columns: result.columns, rows: result.rows, truncated: result.truncated }));
        io.out(
          formatTable(
            result.columns,
            result.rows.map((row) => row.map(cellText)),
          ),
        );
        if (result.truncated) io.err(`Only the first ${result.rows.length} rows are shown (tables.maxRows).\n`);
      });
    });
  group
    .command('list')
    .description('List tables with their SQL names and typed columns (those the principal may see)')
    .option('--as <user>', 'list as this stored user')
    .option('--groups <a,b>', 'list as an ad-hoc member of these groups')
    .option('--json', 'print as JSON')
    .action(async (flags: PrincipalFlags & { json?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const tables = await evident.store.listTables(await principalFromFlags(evident, flags));
        if (flags.json) return io.out(wireJson(tables));
        if (tables.length === 0)
          return io.out('No tables. Ingest a CSV or XLSX file, or a PDF with tables, to get one.\n');
        io.out(
          formatTable(
            ['sql_name', 'doc_id', 'rows', 'columns'],
            tables.map((t) => [t.sqlName, t.docId, t.rowCount, t.columns.map((c) => `${c.name} ${c.type}`).join(', ')]),
          ),
        );
      });
    });
}
