import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './mcp-context.ts';
import { resourceNotFound } from './resource-not-found.ts';
import { CHUNK_URI_TEMPLATE, idFromVariable } from './resource-uri.ts';

/** Chunk ids are `<doc_id>#<n>`: longer than any doc id plus a counter can be is not one. */
const MAX_CHUNK_ID_CHARS = 2_000;

/**
 * `evident://chunks/{chunk_id}`: one chunk's text, read through the store's principal filter. Not listed (a store
 * holds millions): search results and documents link to them.
 */
export function registerChunkResource(server: McpServer, context: McpContext): void {
  server.registerResource(
    'chunk',
    new ResourceTemplate(CHUNK_URI_TEMPLATE, { list: undefined }),
    {
      title: 'A chunk of a document',
      description: 'One retrieved passage by chunk_id (as search and citations name it), if you may read its document.',
      mimeType: 'text/plain',
    },
    async (uri, variables) => {
      const chunkId = idFromVariable(variables.chunk_id);
      if (!chunkId || chunkId.length > MAX_CHUNK_ID_CHARS) throw resourceNotFound(uri);
      const [chunk] = await context.evident.store.getChunks([chunkId], context.principal);
      if (!chunk || chunk.id !== chunkId) throw resourceNotFound(uri);
      const heading = chunk.headingPath.join(' › ');
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/plain',
            text: chunk.text,
            _meta: {
              chunk_id: chunk.id,
              doc_id: chunk.docId,
              source: chunk.source,
              title: chunk.title,
              heading,
              page: chunk.page ?? null,
            },
          },
        ],
      };
    },
  );
}
