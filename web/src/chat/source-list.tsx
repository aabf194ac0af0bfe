import type { Citation } from '../api/wire-types.ts';
import { CitationMarker } from './answer-text.tsx';
import { pageLabel } from './page-label.ts';

/** An answer's sources under its text: marker, document, page (slide of a deck) and the quoted words of each citation. */
export function SourceList({ citations, onOpen }: { citations: Citation[]; onOpen: (index: number) => void }) {
  if (citations.length === 0) return null;
  return (
    <ol className="sources">
      {citations.map((citation, i) => (
        <li key={`${citation.chunk_id}-${i}`}>
          <CitationMarker index={i + 1} onOpen={onOpen} /> <code>{citation.doc_id}</code>
          {citation.page !== undefined && <span className="muted"> {pageLabel(citation.doc_id, citation.page)}</span>}
          <span className="quote"> “{citation.quote}”</span>
        </li>
      ))}
    </ol>
  );
}
