import { z } from 'zod';
import type { IngestOutcome, IngestProgress, IngestStatus, IngestSummary } from '../../ingest/ingest-progress.ts';

/** `added` and `updated` are one thing to an uploader: the document is now searchable in its new version. */
const uploadStatus = z.enum(['ingested', 'unchanged', 'failed']);
export type UploadStatus = z.infer<typeof uploadStatus>;

export const uploadedDocumentJson = z
  .object({
    doc_id: z.string(),
    status: uploadStatus,
    chunks: z.number().int().nonnegative(),
    error: z.object({ code: z.string(), message: z.string(), hint: z.string().nullable() }).strict().optional(),
  })
  .strict();

/** The answer to an upload: one entry per file, in upload order, and the counts. */
export const uploadSummaryJson = z
  .object({
    documents: z.array(uploadedDocumentJson),
    ingested: z.number().int().nonnegative(),
    unchanged: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  })
  .strict();
export type UploadSummaryJson = z.infer<typeof uploadSummaryJson>;

/** The data of an `event: progress` of an upload stream, sent as each file completes. */
export const uploadProgressJson = z
  .object({
    files_done: z.number().int().nonnegative(),
    files_total: z.number().int().nonnegative(),
    chunks: z.number().int().nonnegative(),
    last: z.object({ doc_id: z.string(), status: uploadStatus }).strict(),
  })
  .strict();
export type UploadProgressJson = z.infer<typeof uploadProgressJson>;

const toUploadStatus = (status: IngestStatus): UploadStatus => (status === 'added' || status === 'updated' ? 'ingested' : status);

/** The ingest message ends with the hint (for one-line terminals); the API carries the hint in its own field. */
function errorJson(error: NonNullable<IngestOutcome['error']>) {
  const { hint } = error;
  const message = hint && error.message.endsWith(` ${hint}`) ? error.message.slice(0, -hint.length - 1) : error.message;
  return { code: error.code, message, hint: hint ?? null };
}

export function toUploadSummaryJson(summary: IngestSummary): UploadSummaryJson {
  const documents = summary.outcomes.map((outcome) => ({
    doc_id: outcome.docId,
    status: toUploadStatus(outcome.status),
    chunks: outcome.chunks,
    ...(outcome.error ? { error: errorJson(outcome.error) } : {}),
  }));
  const count = (status: UploadStatus) => documents.filter((d) => d.status === status).length;
  return { documents, ingested: count('ingested'), unchanged: count('unchanged'), failed: count('failed') };
}

export const toUploadProgressJson = (progress: IngestProgress): UploadProgressJson => ({
  files_done: progress.filesDone,
  files_total: progress.filesTotal,
  chunks: progress.chunks,
  last: { doc_id: progress.last.docId, status: toUploadStatus(progress.last.status) },
});

/** 201 when something new became searchable, 422 when every file failed, else 200 (nothing new to store). */
export function uploadHttpStatus(summary: UploadSummaryJson): 200 | 201 | 422 {
  if (summary.ingested > 0) return 201;
  return summary.failed > 0 && summary.failed === summary.documents.length ? 422 : 200;
}
