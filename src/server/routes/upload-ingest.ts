import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestProgress } from '../../ingest/ingest-progress.ts';
import type { Ingestor } from '../../ingest/ingestor.ts';
import type { UploadForm } from './upload-form.ts';
import type { UploadSummaryJson } from '../schemas/upload-json.ts';
import { toUploadSummaryJson } from './upload-summary.ts';

/** Prefix of the private temp folder an upload is written to while it is ingested. */
export const UPLOAD_TEMP_PREFIX = 'evident-upload-';

/**
 * Writes the uploaded files to a private temp folder (mkdtemp: mode 0700) and ingests them through the same
 * Ingestor as the CLI: same loaders, same per-file failures, same content-hash no-op. Each file gets its own
 * sub-folder, so no upload can act as another's ACL sidecar. The folder is removed whatever happens; each file's
 * bytes are kept with its version in the store (`GET /v1/documents/{doc_id}/file` serves them).
 */
export async function ingestUpload(
  ingestor: Ingestor,
  form: UploadForm,
  onProgress?: (progress: IngestProgress) => void,
): Promise<UploadSummaryJson> {
  const folder = await mkdtemp(join(tmpdir(), UPLOAD_TEMP_PREFIX));
  try {
    const files = [];
    for (const [index, upload] of form.files.entries()) {
      const dir = join(folder, String(index));
      await mkdir(dir);
      const path = join(dir, upload.name);
      await writeFile(path, new Uint8Array(await upload.file.arrayBuffer()));
      // The temp copy goes once ingested: the original is kept with its version in the store, for the file route.
      files.push({ path, docId: upload.docId, source: `upload:${upload.docId}`, keepOriginal: true });
    }
    const summary = await ingestor.ingestFiles(files, {
      ...(form.acl ? { acl: form.acl } : {}),
      ...(onProgress ? { onProgress } : {}),
    });
    return toUploadSummaryJson(summary);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
