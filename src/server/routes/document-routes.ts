import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { DocumentRecord } from '../../domain/index.ts';
import { NotFoundError, PayloadTooLargeError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import { requireAdmin } from '../auth.ts';
import type { ServerEnv } from '../server-env.ts';
import { readUploadForm } from './upload-form.ts';
import { ingestUpload } from './upload-ingest.ts';
import { streamUpload, wantsEventStream } from './upload-stream.ts';
import { uploadHttpStatus } from './upload-summary.ts';

/** A document as `GET /v1/documents` lists it. */
export const documentJson = z
  .object({
    doc_id: z.string(),
    title: z.string(),
    type: z.string(),
    source: z.string(),
    acl: z.array(z.string()).describe('Who may see it (`group:<name>`, `user:<name>`); empty means everyone.'),
    tags: z.array(z.string()),
    chunks: z.number().int().nonnegative(),
    pages: z.number().int().nonnegative().nullable(),
    bytes: z.number().int().nonnegative(),
    updated_at: z.string().describe('When this version was ingested (ISO 8601).'),
  })
  .strict();

const toDocumentJson = (doc: DocumentRecord): z.infer<typeof documentJson> => ({
  doc_id: doc.docId,
  title: doc.title,
  type: doc.type,
  source: doc.source,
  acl: doc.acl,
  tags: doc.tags,
  chunks: doc.chunkCount,
  pages: doc.pageCount ?? null,
  bytes: doc.bytes,
  updated_at: doc.ingestedAt,
});

export interface DocumentRoutesOptions {
  /** Logs failures of a streamed upload, which reach no error handler once the stream started. */
  logger?: Logger;
}

/**
 * Documents: everyone lists what their ACL lets them see (filtered in the store); only admins upload and delete.
 * Doc ids are paths (`contracts/x.md`), so the id param takes the rest of the path. An upload request may carry
 * at most `ingest.maxFileBytes` in total, so no request buffers more than one maximal file.
 */
export function documentRoutes(evident: Evident, options: DocumentRoutesOptions = {}): Hono<ServerEnv> {
  const logger = options.logger ?? silentLogger;
  const maxUploadBytes = evident.config.ingest.maxFileBytes;
  return new Hono<ServerEnv>()
    .get('/documents', async (c) => c.json({ documents: (await evident.store.listDocuments(c.get('principal'))).map(toDocumentJson) }))
    .post(
      '/documents',
      requireAdmin('upload documents'),
      bodyLimit({
        maxSize: maxUploadBytes,
        onError: () => {
          throw new PayloadTooLargeError(maxUploadBytes, 'upload');
        },
      }),
      async (c) => {
        const form = await readUploadForm(c);
        await evident.assertEmbedderMatches();
        if (wantsEventStream(c)) {
          return streamUpload(c, (onProgress) => ingestUpload(evident.ingestor, form, onProgress), (error) =>
            logger.error('upload failed', { path: c.req.path, error: String(error) }),
          );
        }
        const summary = await ingestUpload(evident.ingestor, form);
        return c.json(summary, uploadHttpStatus(summary));
      },
    )
    .delete('/documents/:docId{.+}', requireAdmin('delete documents'), async (c) => {
      const docId = c.req.param('docId');
      if (!(await evident.store.deleteDocument(docId))) throw new NotFoundError('document', docId);
      return c.json({ deleted: docId });
    });
}
