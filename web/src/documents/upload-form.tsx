import { useRef, useState, type FormEvent } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';
import type { EvidentApi } from '../api/evident-api.ts';
import type { UploadProgress as Progress, UploadSummary } from '../api/wire-types.ts';
import { ErrorNotice } from '../common/error-notice.tsx';
import { UploadProgress } from './upload-progress.tsx';
import { UploadResult } from './upload-result.tsx';

/** Uploads files into a folder of the doc id space, with an optional ACL, following the ingestion's progress. */
export function UploadForm({ api, onUploaded }: { api: EvidentApi; onUploaded: () => Promise<void> }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [folder, setFolder] = useState('');
  const [acl, setAcl] = useState('');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<Progress | undefined>();
  const [summary, setSummary] = useState<UploadSummary | undefined>();
  const [error, setError] = useState<ApiError | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (files.length === 0) return;
    setBusy(true);
    setError(undefined);
    setSummary(undefined);
    setProgress(undefined);
    try {
      setSummary(await api.upload({ files, folder, acl }, { onProgress: setProgress }));
      setFiles([]);
      if (fileInput.current) fileInput.current.value = '';
    } catch (failure) {
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
    await onUploaded();
  };

  return (
    <form className="upload-form card" onSubmit={submit}>
      <h2>Upload documents</h2>
      <div className="fields">
        <label>
          Files
          <input
            ref={fileInput}
            type="file"
            multiple
            onChange={(event) => setFiles([...(event.target.files ?? [])])}
            disabled={busy}
          />
        </label>
        <label>
          Folder <span className="muted">(optional, e.g. contracts/2025)</span>
          <input type="text" value={folder} onChange={(event) => setFolder(event.target.value)} disabled={busy} />
        </label>
        <label>
          Who may read them <span className="muted">(optional, e.g. group:legal,user:alice; empty = everyone)</span>
          <input type="text" value={acl} onChange={(event) => setAcl(event.target.value)} disabled={busy} />
        </label>
      </div>
      <button type="submit" className="primary" disabled={busy || files.length === 0}>
        {busy
          ? 'Uploading…'
          : `Upload${files.length > 0 ? ` ${files.length} file${files.length === 1 ? '' : 's'}` : ''}`}
      </button>
      {progress && !error && <UploadProgress progress={progress} />}
      {summary && <UploadResult summary={summary} />}
      {error && <ErrorNotice error={error} />}
    </form>
  );
}
