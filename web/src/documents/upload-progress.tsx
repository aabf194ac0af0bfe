import type { UploadProgress as Progress } from '../api/wire-types.ts';

/** The ingestion's progress: a bar of files done, with chunks so far and the last file's status. */
export function UploadProgress({ progress }: { progress: Progress }) {
  const { files_done, files_total, chunks, last } = progress;
  return (
    <div className="upload-progress">
      <progress value={files_done} max={Math.max(files_total, 1)} aria-label="Upload progress" />
      <span>
        {files_done}/{files_total} files · {chunks} chunks
        <span className="muted">
          {' '}
          · {last.doc_id} {last.status}
        </span>
      </span>
    </div>
  );
}
