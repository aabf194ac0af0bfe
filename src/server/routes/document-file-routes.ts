import { Hono } from 'hono';
import { auditedDocumentRead } from '../../audit/audited-reads.ts';
import { NotFoundError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { documentFileReader } from '../document-files/document-file-reader.ts';
import { documentFileHeaders } from '../document-files/document-file-headers.ts';
import type { ServerEnv } from '../server-env.ts';
import { chunkToJson } from '../schemas/chunk-json.ts';

/**
 * `GET /v1/chunks/{chunk_id}`: one chunk as a citation points at it, with where its table rows are printed (the web
 * UI marks a cited row's cells on the PDF page), for a reader who may read its document.
 *
 * `GET /v1/documents/{doc_id}/file`: a document's original file, for the reader who may read the document (the web
 * UI opens a cited PDF at its page). Access is decided by the store's own ACL filter at the moment of the request;
 * a document the reader may not read is "not found", word for word as one that does not exist. The bytes come from
 * the store (an upload's original, kept with its version) or the server's document roots, where they must hash to
 * the indexed version (see DocumentFileReader). `extraRoots` are folders the server itself serves besides the configured
 * ones (`serve --sample`, `serve --watch`).
 */
export function documentFileRoutes(evident: Evident, extraRoots: readonly string[] = []): Hono<ServerEnv> {
  const roots = [...evident.config.documentRoots, ...extraRoots];
  const files = documentFileReader(evident.store, roots, evident.config.ingest.maxFileBytes);
  return new Hono<ServerEnv>()
    .get('/chunks/:chunkId{.+}', async (c) => {
      const chunkId = c.req.param('chunkId');
      const principal = c.get('principal');
      // `<doc_id>#<n>`: the read is of that document, audited as one; a chunk the reader may not see is not found.
      const docId = chunkId.slice(0, Math.max(0, chunkId.lastIndexOf('#')));
      const chunk = await auditedDocumentRead(evident, { docId, principal, surface: 'http' }, async () => {
        const [found] = await evident.store.getChunks([chunkId], principal);
        if (!found) throw new NotFoundError('chunk', chunkId);
        return found;
      });
      return c.json(chunkToJson(chunk));
    })
    .get('/documents/:docId{.+}/file', async (c) => {
      const docId = c.req.param('docId');
      // The store filters by the principal inside its query, as every read of content does.
      const principal = c.get('principal');
      // Recorded in the audit log before the bytes leave (a refused read too, with its error code).
      const { record, bytes } = await auditedDocumentRead(evident, { docId, principal, surface: 'http' }, async () => {
        const found = (await evident.store.listDocuments(principal)).find((document) => document.docId === docId);
        if (!found) throw new NotFoundError('document', docId);
        return { record: found, bytes: await files.read(found, principal) };
      });
      if (c.req.header('if-none-match') === `"${record.contentHash}"`) return c.body(null, 304);
      return c.body(bytes, 200, documentFileHeaders(record, bytes.length));
    });
}
