import type { UploadSummary } from '../api/wire-types.ts';

/** What the upload did, file by file; a failed file shows its reason. */
export function UploadResult({ summary }: { summary: UploadSummary }) {
  return (
    <div className="upload-result" data-testid="upload-result">
      <p>
        {summary.ingested} ingested, {summary.unchanged} unchanged, {summary.failed} failed
      </p>
      <ul>
        {summary.documents.map((document) => (
          <li key={document.doc_id} className={document.error ? 'failed' : undefined}>
            <code>{document.doc_id}</code> {document.status}
            {document.chunks > 0 && <span className="muted"> ({document.chunks} chunks)</span>}
            {document.figures && (
              <span className="muted">
                {' '}
                — {document.figures.described} of {document.figures.described + document.figures.not_described} figures
                described
              </span>
            )}
            {document.error && (
              <span className="upload-error">
                {' '}
                — {document.error.message}{' '}
                {document.error.hint && <span className="error-hint">{document.error.hint}</span>}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
