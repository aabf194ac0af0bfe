import { useState } from 'react';
import type { DocumentSummary } from '../api/wire-types.ts';

function AclCell({ acl }: { acl: string[] }) {
  if (acl.length === 0) return <span className="muted">everyone</span>;
  return (
    <>
      {acl.map((entry) => (
        <span key={entry} className="acl-entry">
          {entry}
        </span>
      ))}
    </>
  );
}

/** Deleting asks once more on the same button, so a stray click removes nothing. */
function DeleteButton({ docId, onDelete }: { docId: string; onDelete: (docId: string) => void }) {
  const [armed, setArmed] = useState(false);
  if (!armed) {
    return (
      <button type="button" className="link-button" onClick={() => setArmed(true)} aria-label={`Delete ${docId}`}>
        Delete
      </button>
    );
  }
  return (
    <span className="confirm-delete">
      <button type="button" className="danger" onClick={() => onDelete(docId)} aria-label={`Confirm delete ${docId}`}>
        Confirm delete
      </button>
      <button type="button" className="link-button" onClick={() => setArmed(false)}>
        Keep
      </button>
    </span>
  );
}

export function DocumentTable({
  documents,
  canDelete,
  onDelete,
}: {
  documents: DocumentSummary[];
  canDelete: boolean;
  onDelete: (docId: string) => void;
}) {
  if (documents.length === 0) return <p className="muted">No documents you may read yet.</p>;
  return (
    <table className="document-table" data-testid="document-table">
      <thead>
        <tr>
          <th>Document</th>
          <th>Title</th>
          <th>Who may read it</th>
          <th className="number">Chunks</th>
          <th>Ingested</th>
          {canDelete && <th aria-label="Actions" />}
        </tr>
      </thead>
      <tbody>
        {documents.map((document) => (
          <tr key={document.doc_id}>
            <td>
              <code>{document.doc_id}</code>
            </td>
            <td>{document.title}</td>
            <td>
              <AclCell acl={document.acl} />
            </td>
            <td className="number">{document.chunks}</td>
            <td className="muted">{new Date(document.updated_at).toLocaleString()}</td>
            {canDelete && (
              <td>
                <DeleteButton docId={document.doc_id} onDelete={onDelete} />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
