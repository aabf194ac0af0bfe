import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { DocumentRecord } from '../../../domain/index.ts';
import type { McpContext } from './mcp-context.ts';
import { resourceNotFound } from './resource-not-found.ts';
import { DOCUMENT_URI_TEMPLATE, documentUri, idFromVariable } from './resource-uri.ts';
import { auditedDocumentRead } from '../../../audit/audited-reads.ts';
import { DOCUMENT_PAGE_MAX } from '../../document-listing.ts';

/** A document reads as its chunks' text up to this many characters; the rest is named, not sent (read its chunks). */
export const MAX_DOCUMENT_RESOURCE_CHARS = 200_000;
const CHUNK_BATCH = 100;

/** The document's text, chunk by chunk in order, read through the principal filter and cut at whole chunks by `maxChars`. */
export async function documentText(
  context: Pick<McpContext, 'evident' | 'principal'>,
  doc: DocumentRecord,
  maxChars = MAX_DOCUMENT_RESOURCE_CHARS,
): Promise<{ text: string; chunks: number; truncated: boolean }> {
  const parts: string[] = [];
  let chars = 0;
  let read = 0;
  for (let start = 0; start < doc.chunkCount; start += CHUNK_BATCH) {
    const ids = Array.from(
      { length: Math.min(CHUNK_BATCH, doc.chunkCount - start) },
      (_, i) => `${doc.docId}#${start + i}`,
    );
    const chunks = (await context.evident.store.getChunks(ids, context.principal)).sort(
      (a, b) => a.ordinal - b.ordinal,
    );
    for (const chunk of chunks) {
      if (chars + chunk.text.length > maxChars) {
        return { text: parts.join('\n\n'), chunks: read, truncated: true };
      }
      parts.push(chunk.text);
      chars += chunk.text.length + 2;
      read += 1;
    }
  }
  return { text: parts.join('\n\n'), chunks: read, truncated: false };
}

/**
 * `evident://documents/{doc_id}`: the documents the caller may read, listed and read through the store's principal
 * filter. Any other id — another user's document included — is "not found", exactly as a missing one.
 */
export function registerDocumentResource(server: McpServer, context: McpContext): void {
  const { store } = context.evident;
  // Whether the caller may read it is asked of the store's principal filter (its first chunk through `getChunks`), not
  // decided here; only a document without chunks falls back to the filtered list.
  const readable = async (docId: string): Promise<DocumentRecord | undefined> => {
    const doc = await store.getDocument(docId);
    if (!doc) return undefined;
    if (doc.chunkCount === 0)
      return (await store.listDocuments(context.principal)).find((listed) => listed.docId === docId);
    return (await store.getChunks([`${docId}#0`], context.principal)).length > 0 ? doc : undefined;
  };
  server.registerResource(
    'document',
    new ResourceTemplate(DOCUMENT_URI_TEMPLATE, {
      list: async () => ({
        // At most a page of the largest size: an MCP client lists, then reads or searches; list_documents pages on.
        resources: (await store.listDocuments(context.principal, { limit: DOCUMENT_PAGE_MAX })).map((doc) => ({
          uri: documentUri(doc.docId),
          name: doc.docId,
          title: doc.title,
          mimeType: 'text/plain',
          size: doc.bytes,
        })),
      }),
    }),
    {
      title: 'A document',
      description: 'The text of a document you may read, by doc_id (its path relative to the ingested folder).',
      mimeType: 'text/plain',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      const docId = idFromVariable(variables.doc_id);
      if (!docId) throw resourceNotFound(uri);
      // Recorded in the audit log before the text leaves (a refused read too).
      const { doc, text, chunks, truncated } = await auditedDocumentRead(
        context.evident,
        { docId, principal: context.principal, surface: 'mcp' },
        async () => {
          const found = await readable(docId);
          if (!found) throw resourceNotFound(uri);
          return { doc: found, ...(await documentText(context, found)) };
        },
      );
      const note = truncated
        ? `\n\n[Cut after ${chunks} of ${doc.chunkCount} chunks (${MAX_DOCUMENT_RESOURCE_CHARS} characters); read the rest as evident://chunks/${encodeURIComponent(`${doc.docId}#${chunks}`)} and on.]`
        : '';
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/plain',
            text: `${text}${note}`,
            _meta: {
              doc_id: doc.docId,
              title: doc.title,
              type: doc.type,
              source: doc.source,
              chunks: doc.chunkCount,
              pages: doc.pageCount ?? null,
              truncated,
            },
          },
        ],
      };
    },
  );
}
