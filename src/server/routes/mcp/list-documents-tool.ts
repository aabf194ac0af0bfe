import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Logger } from '../../../logging/logger.ts';
import { documentJson, toDocumentJson } from '../../schemas/document-json.ts';
import { documentPage } from '../../document-listing.ts';
import type { McpContext } from './mcp-context.ts';
import { documentUri } from './resource-uri.ts';
import { guarded, toolResult } from './tool-result.ts';

const listDocumentsOutput = z.object({
  documents: z.array(documentJson.extend({ uri: z.string() })),
  next_cursor: z.string().nullable(),
});

/** `list_documents`: the documents the caller may read (the store filters by ACL), as `GET /v1/documents` lists them. */
export function registerListDocumentsTool(server: McpServer, context: McpContext, logger: Logger): void {
  server.registerTool(
    'list_documents',
    {
      title: 'List the documents you may read',
      description:
        'Lists the ingested documents you may read: doc_id, title, type, pages, chunks, ACL, and the evident://documents/{doc_id} resource that reads one.',
      inputSchema: {
        cursor: z.string().max(512).optional().describe('The next_cursor of the previous page (pages of 200).'),
        thread: z
          .string()
          .max(512)
          .optional()
          .describe("Only the e-mails of this thread (a message's metadata.thread)."),
      },
      outputSchema: listDocumentsOutput.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'list_documents', async () => {
        const page = await documentPage(context.evident.store, context.principal, {
          cursor: args.cursor,
          thread: args.thread,
        });
        const documents = page.documents.map((doc) => ({
          ...toDocumentJson(doc),
          uri: documentUri(doc.docId),
        }));
        const text = documents.length
          ? documents
              .map(
                (doc) =>
                  `${doc.doc_id} — ${doc.title} (${doc.type}, ${doc.chunks} chunks${doc.pages ? `, ${doc.pages} pages` : ''})`,
              )
              .join('\n')
          : 'No documents you may read.';
        const more = page.nextCursor
          ? `\n… more: call list_documents with cursor ${JSON.stringify(page.nextCursor)}`
          : '';
        return toolResult(`${text}${more}`, { documents, next_cursor: page.nextCursor });
      }),
  );
}
