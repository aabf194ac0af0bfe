import type { IngestOutcome, IngestProgress, IngestStatus, IngestSummary } from '../../ingest/ingest-progress.ts';
import type { UploadProgressJson, UploadStatus, UploadSummaryJson } from '../schemas/upload-json.ts';

const toUploadStatus = (status: IngestStatus): UploadStatus =>
  status === 'added' || status === 'updated' ? 'ingested' : status;

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
    ...(outcome.figures
      ? { figures: { described: outcome.figures.described, not_described: outcome.figures.notDescribed } }
      : {}),
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
