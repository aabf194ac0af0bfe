import { useCallback, useEffect, useState } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';
import type { EvidentApi } from '../api/evident-api.ts';
import type { DocumentSummary, Me } from '../api/wire-types.ts';
import { ErrorNotice } from '../common/error-notice.tsx';
import { DocumentTable } from './document-table.tsx';
import { UploadForm } from './upload-form.tsx';

/** The documents the user may read, with their ACLs; admins upload and delete. */
export function DocumentsPage({ api, me }: { api: EvidentApi; me: Me }) {
  const [documents, setDocuments] = useState<DocumentSummary[] | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const isAdmin = me.roles.includes('admin');

  const reload = useCallback(async () => {
    try {
      setDocuments(await api.documents());
    } catch (failure) {
      setError(toApiError(failure));
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const remove = async (docId: string) => {
    setError(undefined);
    try {
      await api.deleteDocument(docId);
    } catch (failure) {
      setError(toApiError(failure));
    }
    await reload();
  };

  return (
    <main className="documents-page">
      {isAdmin ? (
        <UploadForm api={api} onUploaded={reload} />
      ) : (
        <p className="muted">Only admins upload and delete documents. You see the documents your groups may read.</p>
      )}
      {error && <ErrorNotice error={error} onDismiss={() => setError(undefined)} />}
      {documents && <DocumentTable documents={documents} canDelete={isAdmin} onDelete={remove} />}
    </main>
  );
}
