import type { EvidentApi } from '../api/evident-api.ts';
import type { Citation, Evidence } from '../api/wire-types.ts';
import { HighlightedText } from './highlighted-text.tsx';
import { pageNoun } from './page-label.ts';
import { PdfPageView } from './pdf-page-view.tsx';

/** A citation the user opened, with the evidence of the answer it belongs to (a fresh answer's or an earlier one's). */
export interface OpenedCitation {
  index: number;
  citation: Citation;
  evidence: Evidence[];
}

/** A PDF citation with a page opens the PDF itself; doc ids keep their file's extension. */
const isPdfPage = (docId: string, page: number | undefined): page is number =>
  page !== undefined && /\.pdf$/i.test(docId);

/**
 * The chunk a citation points at: its document, heading and page, then — for a PDF — the page itself with the quote
 * highlighted, and the chunk's text with the quote highlighted (for every format).
 */
export function CitationPanel({
  api,
  opened,
  onClose,
}: {
  api: EvidentApi;
  opened: OpenedCitation;
  onClose: () => void;
}) {
  const { citation, index, evidence } = opened;
  const chunk = evidence.find((item) => item.chunk_id === citation.chunk_id);
  const page = chunk?.page ?? citation.page;
  const pdf = isPdfPage(citation.doc_id, page);
  return (
    <aside
      className={pdf ? 'citation-panel card with-pdf' : 'citation-panel card'}
      aria-label={`Source ${index}`}
      data-testid="citation-panel"
    >
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
            <dt>{pageNoun(citation.doc_id)}</dt>
            <dd>{page}</dd>
          </>
        )}
        <dt>Chunk</dt>
        <dd>
          <code>{citation.chunk_id}</code>
        </dd>
      </dl>
      {pdf && (
        <PdfPageView
          key={`${citation.chunk_id}:${citation.quote}`}
          api={api}
          docId={citation.doc_id}
          chunkId={citation.chunk_id}
          page={page}
          quote={citation.quote}
        />
      )}
      {chunk ? (
        <HighlightedText text={chunk.text} quote={citation.quote} />
      ) : (
        <>
          <p className="muted">This answer's evidence no longer holds the chunk; the quoted words were:</p>
          <blockquote>{citation.quote}</blockquote>
        </>
      )}
    </aside>
  );
}
