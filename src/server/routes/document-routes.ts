import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { NotFoundError, PayloadTooLargeError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import { requireAdmin } from '../auth.ts';
import { toDocumentJson } from '../schemas/document-json.ts';
import type { ServerEnv } from '../server-env.ts';
import { readUploadForm } from './upload-form.ts';
import { ingestUpload } from './upload-ingest.ts';
import { streamUpload, wantsEventStream } from './upload-stream.ts';
import { uploadHttpStatus } from './upload-summary.ts';
import { documentPage } from '../document-listing.ts';

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
  // An upload is recorded as received before it is stored and with its outcome once done, a deletion once done; a
  // failed record fails the response (a change already made stands).
  const audit = evident.audit;
  return new Hono<ServerEnv>()
    .get('/documents', async (c) => {
      const page = await documentPage(evident.store, c.get('principal'), {
        limit: c.req.query('limit'),
        cursor: c.req.query('cursor'),
        thread: c.req.query('thread'),
      });
      return c.json({ documents: page.documents.map(toDocumentJson), next_cursor: page.nextCursor });
    })
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
        const actor = c.get('principal');
        const upload = async (onProgress?: Parameters<typeof ingestUpload>[2]) => {
          // Recorded as received before anything is stored: a crash after the store's write leaves its record.
          for (const file of form.files)
            await audit.admin({
              actor,
              action: 'document.upload',
              target: file.docId,
              surface: 'http',
              outcome: 'received',
            });
          const summary = await ingestUpload(evident.ingestor, form, onProgress);
          for (const document of summary.documents) {
            await audit.admin({
              actor,
              action: 'document.upload',
              target: document.doc_id,
              surface: 'http',
              outcome: document.status,
            });
          }
          return summary;
        };
        if (wantsEventStream(c)) {
          return streamUpload(
            c,
            (onProgress) => upload(onProgress),
            (error) => logger.error('upload failed', { path: c.req.path, error: String(error) }),
          );
        }
        const summary = await upload();
        return c.json(summary, uploadHttpStatus(summary));
      },
    )
    .delete('/documents/:docId{.+}', requireAdmin('delete documents'), async (c) => {
      const docId = c.req.param('docId');
      if (!(await evident.store.deleteDocument(docId))) throw new NotFoundError('document', docId);
      await audit.admin({ actor: c.get('principal'), action: 'document.delete', target: docId, surface: 'http' });
      return c.json({ deleted: docId });
    });
}
