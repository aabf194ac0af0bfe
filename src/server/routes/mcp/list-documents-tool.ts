import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Logger } from '../../../logging/logger.ts';
import { documentJson, toDocumentJson } from '../../schemas/document-json.ts';
import type { McpContext } from './mcp-context.ts';
import { documentUri } from './resource-uri.ts';
import { guarded, toolResult } from './tool-result.ts';

const listDocumentsOutput = z.object({ documents: z.array(documentJson.extend({ uri: z.string() })) });

/** `list_documents`: the documents the caller may read (the store filters by ACL), as `GET /v1/documents` lists them. */
export function registerListDocumentsTool(server: McpServer, context: McpContext, logger: Logger): void {
  server.registerTool(
    'list_documents',
    {
      title: 'List the documents you may read',
      description:
        'Lists the ingested documents you may read: doc_id, title, type, pages, chunks, ACL, and the evident://documents/{doc_id} resource that reads one.',
      outputSchema: listDocumentsOutput.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(logger, 'list_documents', async () => {
        const documents = (await context.evident.store.listDocuments(context.principal)).map((doc) => ({
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
        return toolResult(text, { documents });
      }),
  );
}
