import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { describeTables } from '../../../agent/core/tools/table-query.ts';
import type { Logger } from '../../../logging/logger.ts';
import type { McpContext } from './mcp-context.ts';
import { guarded, toolResult } from './tool-result.ts';

const listTablesOutput = z.object({
  tables: z.array(
    z.object({
      sql_name: z.string().describe('The name to use in table_query.'),
      doc_id: z.string(),
      title: z.string(),
      rows: z.number(),
      columns: z.array(z.object({ name: z.string(), type: z.string() })),
    }),
  ),
});

/** `list_tables`: the SQL tables made from the CSV/XLSX sheets the caller may read, with typed columns. */
export function registerListTablesTool(server: McpServer, context: McpContext, logger: Logger): void {
  server.registerTool(
    'list_tables',
    {
      title: 'List the tables you may query',
      description:
        'Lists the SQL tables made from ingested CSV/XLSX sheets that you may read: sql_name (for table_query), source doc_id, row count and typed columns.',
      outputSchema: listTablesOutput.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(logger, 'list_tables', async () => {
        const records = await context.evident.store.listTables(context.principal);
        const tables = records.map((table) => ({
          sql_name: table.sqlName,
          doc_id: table.docId,
          title: table.title,
          rows: table.rowCount,
          columns: table.columns.map((c) => ({ name: c.name, type: c.type })),
        }));
        return toolResult(records.length ? describeTables(records) : 'No tables you may query.', { tables });
      }),
  );
}
