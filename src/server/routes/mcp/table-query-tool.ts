import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  createTableQueryTool,
  DEFAULT_TABLE_QUERY_LIMITS,
  summarizeRows,
  tableQueryInputSchema,
} from '../../../agent/core/tools/table-query.ts';
import type { Logger } from '../../../logging/logger.ts';
import type { McpContext } from './mcp-context.ts';
import { guarded, toolResult } from './tool-result.ts';
import { auditedTableQuery } from '../../../audit/audited-reads.ts';

/** A cell as JSON: bytes and big integers have no JSON form of their own. */
function jsonCell(value: unknown): unknown {
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

const tableQueryOutput = z.object({
  sql: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  truncated: z.boolean().describe('There were more rows than the configured tables.maxRows.'),
});

/**
 * `table_query`: one read-only SELECT over the ingested tables the caller may see, through `store.queryTables` as the
 * agents' table tool calls it: the same SQL guard (one statement, only the principal's tables, no store tables or
 * functions), the same input bound and the configured `tables.*` limits (rows, time, bytes, memory). Refusals
 * (`query_rejected`, `query_timeout`, `query_too_large`) come back as tool errors that say what to change.
 */
export function registerTableQueryTool(server: McpServer, context: McpContext, logger: Logger): void {
  const { store, config } = context.evident;
  const description = createTableQueryTool({ store }).description;
  const limits = { ...DEFAULT_TABLE_QUERY_LIMITS, ...config.tables };
  server.registerTool(
    'table_query',
    {
      title: 'Query the ingested tables (read-only SQL)',
      description: `${description} List the tables and their columns with list_tables first.`,
      inputSchema: {
        sql: tableQueryInputSchema.shape.sql.describe(`One ${store.sqlDialect} SELECT (or WITH … SELECT).`),
      },
      outputSchema: tableQueryOutput.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'table_query', async () => {
        const result = await auditedTableQuery(context.evident, {
          sql: args.sql,
          principal: context.principal,
          limits,
          surface: 'mcp',
        });
        const rows = result.rows.map((row) => row.map(jsonCell));
        return toolResult(summarizeRows(result.columns, result.rows, result.truncated), {
          sql: args.sql,
          columns: result.columns,
          rows,
          truncated: result.truncated,
        });
      }),
  );
}
