import type { Command } from 'commander';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

export function registerTablesCommand(program: Command, io: CliIo): void {
  program
    .command('tables')
    .description('SQL tables made from ingested CSV and XLSX sheets')
    .command('list')
    .description('List tables with their SQL names and typed columns (those the principal may see)')
    .option('--as <user>', 'list as this stored user')
    .option('--groups <a,b>', 'list as an ad-hoc member of these groups')
    .option('--json', 'print as JSON')
    .action(async (flags: PrincipalFlags & { json?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const tables = await evident.store.listTables(await principalFromFlags(evident, flags));
        if (flags.json) return io.out(wireJson(tables));
        if (tables.length === 0) return io.out('No tables. Ingest a CSV or XLSX file to get one.\n');
        io.out(
          formatTable(
            ['sql_name', 'doc_id', 'rows', 'columns'],
            tables.map((t) => [t.sqlName, t.docId, t.rowCount, t.columns.map((c) => `${c.name} ${c.type}`).join(', ')]),
          ),
        );
      });
    });
}
