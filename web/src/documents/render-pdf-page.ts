import type { RowRegion } from '../api/wire-types.ts';
import { quoteSpans, type QuoteSpan } from '../chat/quote-spans.ts';

/**
 * What was drawn: the page shown (the cited one, kept within the document), how many there are, the quote's marks
 * in the text layer and the cited table row's cells marked over their ink.
 */
export interface RenderedPdfPage {
  page: number;
  pages: number;
  marks: number;
  cellMarks: number;
}

/** pdf.js is 1.6 MB: loaded the first time a PDF is opened, not with the UI. Its worker code runs in the page. */
const loadPdfjs = () => import('unpdf/pdfjs');

/** Wraps the quoted part of each covered text item in a `<mark>`, so the highlight lies over the glyphs it quotes. */
function markQuote(divs: readonly HTMLElement[], spans: readonly QuoteSpan[]): number {
  let marks = 0;
  for (const { item, start, end } of spans) {
    const div = divs[item];
    const text = div?.textContent;
    if (!div || !text) continue;
    const mark = document.createElement('mark');
    mark.className = 'quote-mark';
    mark.textContent = text.slice(start, end);
    div.replaceChildren(text.slice(0, start), mark, text.slice(end));
    marks += 1;
  }
  return marks;
}

type PageViewport = { convertToViewportRectangle(rect: number[]): number[] };

/**
 * One box per cell of the cited row, placed over the canvas where the cell is printed: a table row the loader composed
 * (`System: BERT LARGE | Dev: 86.6`) is no text of the page, so its quote cannot be found in the text layer.
 */
function markCells(sheet: HTMLElement, viewport: PageViewport, region: RowRegion): number {
  const layer = document.createElement('div');
  layer.className = 'cell-marks';
  for (const box of region.cells) {
    const [xa = 0, ya = 0, xb = 0, yb = 0] = viewport.convertToViewportRectangle(box);
    const mark = document.createElement('div');
    mark.className = 'cell-mark';
    mark.style.left = `${Math.min(xa, xb)}px`;
    mark.style.top = `${Math.min(ya, yb)}px`;
    mark.style.width = `${Math.abs(xb - xa)}px`;
    mark.style.height = `${Math.abs(yb - ya)}px`;
    layer.append(mark);
  }
  sheet.append(layer);
  return region.cells.length;
}

type PdfDocument = Awaited<ReturnType<Awaited<ReturnType<typeof loadPdfjs>>['getDocument']>['promise']>;

/**
 * The cited page, or the next one when only it holds the quote: a chunk's page is the page it starts on, and a
 * chunk that runs over a page break may be quoted from its continuation.
 */
async function pageWithQuote(document_: PdfDocument, cited: number, quote: string): Promise<number> {
  const itemsOf = async (number: number) =>
    (await (await document_.getPage(number)).getTextContent()).items.map((item) => ('str' in item ? item.str : ''));
  if (quoteSpans(await itemsOf(cited), quote).length > 0 || cited >= document_.numPages) return cited;
  return quoteSpans(await itemsOf(cited + 1), quote).length > 0 ? cited + 1 : cited;
}

/**
 * Draws one page of a PDF into `host` at `width` CSS pixels: the canvas, and over it pdf.js's text layer (transparent
 * spans placed on the glyphs) with the quote marked. The whole document is parsed from `data`, so `page` is checked
 * against its real page count (and the next page is shown when only it holds the quote). Stops between steps once `signal` is aborted (another citation was opened).
 */
export async function renderPdfPage(
  host: HTMLElement,
  data: ArrayBuffer,
  page: number,
  quote: string,
  width: number,
  signal: AbortSignal,
  row?: RowRegion,
): Promise<RenderedPdfPage> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false });
  const document_ = await task.promise;
  try {
    const within = (value: number) => Math.min(Math.max(1, Math.trunc(value)), document_.numPages);
    // A cited table row is on the page its cells are printed on; a quote of text may be on the page after the chunk's.
    const number = row ? within(row.page) : await pageWithQuote(document_, within(page), quote);
    const pdfPage = await document_.getPage(number);
    const scale = width / pdfPage.getViewport({ scale: 1 }).width;
    const viewport = pdfPage.getViewport({ scale });
    const ratio = window.devicePixelRatio || 1;

    const sheet = document.createElement('div');
    sheet.className = 'pdf-sheet';
    sheet.dataset.pageNumber = String(number);
    sheet.style.width = `${viewport.width}px`;
    sheet.style.height = `${viewport.height}px`;
    sheet.style.setProperty('--total-scale-factor', String(scale));
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${viewport.width}px`;
    canvas.style.height = `${viewport.height}px`;
    const layer = document.createElement('div');
    layer.className = 'textLayer';
    sheet.append(canvas, layer);

    await pdfPage.render({ canvas, viewport, ...(ratio !== 1 ? { transform: [ratio, 0, 0, ratio, 0, 0] } : {}) })
      .promise;
    if (signal.aborted) return { page: number, pages: document_.numPages, marks: 0, cellMarks: 0 };
    const textLayer = new pdfjs.TextLayer({
      textContentSource: await pdfPage.getTextContent(),
      container: layer,
      viewport,
    });
    await textLayer.render();
    if (signal.aborted) return { page: number, pages: document_.numPages, marks: 0, cellMarks: 0 };
    const marks = markQuote(textLayer.textDivs, quoteSpans(textLayer.textContentItemsStr, quote));
    const cellMarks = row ? markCells(sheet, viewport, row) : 0;
    host.replaceChildren(sheet);
    return { page: number, pages: document_.numPages, marks, cellMarks };
  } finally {
    await task.destroy();
  }
}
