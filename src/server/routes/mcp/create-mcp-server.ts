import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { silentLogger, type Logger } from '../../../logging/logger.ts';
import { registerAskTool } from './ask-tool.ts';
import { registerChunkResource } from './chunk-resource.ts';
import { registerCitedAnswerPrompt } from './cited-answer-prompt.ts';
import { registerDocumentResource } from './document-resource.ts';
import { registerListDocumentsTool } from './list-documents-tool.ts';
import { registerListTablesTool } from './list-tables-tool.ts';
import { registerRateAnswerTool } from './rate-answer-tool.ts';
import type { McpContext } from './mcp-context.ts';
import { registerSearchTool } from './search-tool.ts';
import { registerTableQueryTool } from './table-query-tool.ts';

/** Tool arguments (array items and object members) one call may send: far above any real call, far below a flood. */
const MAX_TOOL_INPUT_ELEMENTS = 1_000;

const INSTRUCTIONS =
  "Evident answers from an organisation's documents, as the signed-in user: everything you see is what that user may " +
  'read. Use `search` for passages, `ask` for a checked answer with citations (it says when it does not know), ' +
  '`list_tables` and `table_query` for numbers in spreadsheets, `rate_answer` to report an answer as right or wrong. ' +
  'Cite chunk_ids; read a passage as evident://chunks/{chunk_id}.';

/** One MCP server for one principal: every tool, resource and prompt acts as `context.principal`. */
export function createMcpServer(context: McpContext, logger: Logger = silentLogger): McpServer {
  const server = new McpServer(
    { name: 'evident', title: 'Evident', version: '0.1.0' },
    { instructions: INSTRUCTIONS, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
  );
  registerSearchTool(server, context, logger);
  registerAskTool(server, context, logger);
  registerTableQueryTool(server, context, logger);
  registerListDocumentsTool(server, context, logger);
  registerListTablesTool(server, context, logger);
  registerRateAnswerTool(server, context, logger);
  registerDocumentResource(server, context);
  registerChunkResource(server, context);
  registerCitedAnswerPrompt(server, context, logger);
  return server;
}
