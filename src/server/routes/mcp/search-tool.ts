import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { auditedSearch } from '../../../audit/audited-search.ts';
import { pageLabel } from '../../../domain/page-label.ts';
import type { Logger } from '../../../logging/logger.ts';
import { scoreViewFor, searchResultJson, type SearchResultJson } from '../../../retrieval/search-result-json.ts';
import { assertQueryWithin } from '../../request-limits.ts';
import { searchResultSchema } from '../../schemas/search-json.ts';
import type { McpContext } from './mcp-context.ts';
import { chunkUri } from './resource-uri.ts';
import { guarded, toolResult } from './tool-result.ts';

export interface McpSearchRequest {
  query: string;
  topK?: number;
  channels?: ('bm25' | 'vector')[];
}

/**
 * THE search of the MCP surface (the tool and the `cited_answer` prompt): bounded like `POST /v1/search`, run as the
 * principal (the store filters by ACL in SQL, before ranking), shown with the scores that principal may see.
 */
export async function searchForMcp(
  context: Pick<McpContext, 'evident' | 'principal' | 'limits'>,
  request: McpSearchRequest,
): Promise<SearchResultJson[]> {
  const { evident, principal } = context;
  assertQueryWithin(request.query, context.limits);
  await evident.assertEmbedderMatches();
  // Recorded in the audit log (surface `mcp`) before any result leaves, as every front end's searches are.
  const trace = await auditedSearch(evident, {
    query: request.query,
    principal,
    surface: 'mcp',
    options: {
      ...(request.topK ? { topK: request.topK } : {}),
      ...(request.channels ? { channels: request.channels } : {}),
    },
  });
  const view = scoreViewFor(principal);
  return trace.results.map((result) => searchResultJson(result, view));
}

const searchOutput = z.object({
  query: z.string(),
  results: z.array(searchResultSchema.extend({ uri: z.string() })),
});

const resultLine = (result: SearchResultJson) =>
  `[${result.rank}] ${result.chunk_id}${result.page ? ` (${pageLabel(result.doc_id, result.page)})` : ''}${result.heading ? ` — ${result.heading}` : ''}\n${result.text}`;

export function registerSearchTool(server: McpServer, context: McpContext, logger: Logger): void {
  server.registerTool(
    'search',
    {
      title: 'Search the knowledge base',
      description:
        'Hybrid search (BM25 + vectors) over the documents you may read. Returns ranked chunks with doc_id, chunk_id, ' +
        'heading, page and text, and a resource link per chunk (evident://chunks/{chunk_id}).',
      inputSchema: {
        query: z.string().trim().min(1, 'a non-empty query is required').describe('What to look for.'),
        top_k: z
          .number()
          .int()
          .positive()
          .max(200)
          .optional()
          .describe('How many chunks (default: the configured top_k).'),
        channels: z
          .array(z.enum(['bm25', 'vector']))
          .min(1)
          .max(2)
          .optional()
          .describe('Which retrieval channels (default: both).'),
      },
      outputSchema: searchOutput.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'search', async () => {
        const results = await searchForMcp(context, {
          query: args.query,
          ...(args.top_k ? { topK: args.top_k } : {}),
          ...(args.channels ? { channels: args.channels } : {}),
        });
        const text = results.length
          ? results.map(resultLine).join('\n\n')
          : `No results for ${JSON.stringify(args.query)} in the documents you may read.`;
        const links = results.map((result) => ({
          type: 'resource_link' as const,
          uri: chunkUri(result.chunk_id),
          name: result.chunk_id,
          ...(result.heading ? { description: result.heading } : {}),
          mimeType: 'text/plain',
        }));
        return toolResult(
          text,
          { query: args.query, results: results.map((result) => ({ ...result, uri: chunkUri(result.chunk_id) })) },
          links,
        );
      }),
  );
}
