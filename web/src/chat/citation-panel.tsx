import type { Citation, Evidence } from '../api/wire-types.ts';
import { HighlightedText } from './highlighted-text.tsx';

export interface OpenedCitation {
  index: number;
  citation: Citation;
}

/** The chunk a citation points at: its document, heading and page, and the text with the quote highlighted. */
export function CitationPanel({ opened, evidence, onClose }: { opened: OpenedCitation; evidence: Evidence[]; onClose: () => void }) {
  const { citation, index } = opened;
  const chunk = evidence.find((item) => item.chunk_id === citation.chunk_id);
  const page = chunk?.page ?? citation.page;
  return (
    <aside className="citation-panel card" aria-label={`Source ${index}`} data-testid="citation-panel">
      <header>
        <h2>
          [{index}] {chunk?.title || citation.doc_id}
        </h2>
        <button type="button" className="link-button" onClick={onClose} aria-label="Close source">
          Close
        </button>
      </header>
      <dl className="chunk-facts">
        <dt>Document</dt>
        <dd>
          <code>{citation.doc_id}</code>
        </dd>
        {chunk?.heading && (
          <>
            <dt>Section</dt>
            <dd>{chunk.heading}</dd>
          </>
        )}
        {page !== undefined && (
          <>
            <dt>Page</dt>
            <dd>{page}</dd>
          </>
        )}
        <dt>Chunk</dt>
        <dd>
          <code>{citation.chunk_id}</code>
        </dd>
      </dl>
      {chunk ? (
        <HighlightedText text={chunk.text} quote={citation.quote} />
      ) : (
        <>
          <p className="muted">This run's evidence no longer holds the chunk; the quoted words were:</p>
          <blockquote>{citation.quote}</blockquote>
        </>
      )}
    </aside>
  );
}
