import { useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';
import type { EvidentApi } from '../api/evident-api.ts';
import { ErrorNotice } from '../common/error-notice.tsx';
import { renderPdfPage, type RenderedPdfPage } from '../documents/render-pdf-page.ts';
import { citedRegion } from './cited-region.ts';

/** The PDF page is drawn at the panel's width (this one before the panel is laid out). */
const FALLBACK_WIDTH = 540;

type ViewState =
  | { phase: 'loading' }
  | { phase: 'shown'; shown: RenderedPdfPage }
  | { phase: 'failed'; error: ApiError };

/**
 * A cited PDF page as the document shows it: the original file (fetched under the reader's key) at the cited page,
 * with the quoted passage highlighted and scrolled into view. When the file cannot be had (it changed, or the
 * server keeps no copy), says why; the caller still shows the chunk's text.
 */
export function PdfPageView({
  api,
  docId,
  chunkId,
  page,
  quote,
}: {
  api: EvidentApi;
  docId: string;
  chunkId: string;
  page: number;
  quote: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<ViewState>({ phase: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setView({ phase: 'loading' });
    void (async () => {
      try {
        // The chunk says where its table rows are printed; without it (an older server) only the quote is marked.
        const [data, chunk] = await Promise.all([
          api.documentFile(docId, controller.signal),
          api.chunk(chunkId, controller.signal).catch(() => undefined),
        ]);
        if (!host.current || controller.signal.aborted) return;
        const row = chunk ? citedRegion(chunk.regions, quote) : undefined;
        const shown = await renderPdfPage(
          host.current,
          data,
          page,
          quote,
          host.current.clientWidth || FALLBACK_WIDTH,
          controller.signal,
          row,
        );
        if (controller.signal.aborted) return;
        setView({ phase: 'shown', shown });
        host.current.querySelector('mark, .cell-mark')?.scrollIntoView({ block: 'center' });
      } catch (failure) {
        if (!controller.signal.aborted) setView({ phase: 'failed', error: toApiError(failure) });
      }
    })();
    return () => controller.abort();
  }, [api, docId, chunkId, page, quote]);

  return (
    <figure className="pdf-view" data-testid="pdf-view" aria-busy={view.phase === 'loading'}>
      <figcaption className="muted">
        {view.phase === 'shown' ? (
          <span data-testid="pdf-page-label">
            Page {view.shown.page} of {view.shown.pages}
            {view.shown.cellMarks > 0
              ? ` — the cited row's ${view.shown.cellMarks} cells are marked`
              : view.shown.marks === 0 && " — the quote was not found in this page's text layer"}
          </span>
        ) : view.phase === 'loading' ? (
          'Opening the PDF…'
        ) : (
          'The PDF could not be opened.'
        )}
      </figcaption>
      {view.phase === 'failed' && <ErrorNotice error={view.error} />}
      <div className="pdf-host" ref={host} />
    </figure>
  );
}
