import { getResolvedPDFJS, type getDocumentProxy } from 'unpdf';
import { imageCoverage } from './image-coverage.ts';

type DocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

/** A page to OCR and its size in points (to choose a resolution that keeps its image bounded). */
export interface ScannedPage {
  page: number;
  width: number;
  height: number;
  /** The page has a little text of its own (a stamp, a page number) over its scan. */
  hasText: boolean;
}

/** A page with a little text is a scan when its images cover at least this share of it. */
const SCAN_COVERAGE = 0.5;

/**
 * Of the pages with no text (1-based), those that paint an image: a scan. A page with neither text nor image is
 * blank and needs nothing. Of the `sparse` pages (a little text), those whose images cover at least half the page:
 * a scan with a scanner's stamp, a Bates number or a page number set over it, whose text layer is not the page.
 */
export async function scannedPages(
  pdf: DocumentProxy,
  textless: readonly number[],
  sparse: readonly number[] = [],
): Promise<ScannedPage[]> {
  if (textless.length === 0 && sparse.length === 0) return [];
  const { OPS } = await getResolvedPDFJS();
  const paintsImage = new Set([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
  ]);
  const ops = { ...OPS, paintsImage };
  const withText = new Set(sparse);
  const scanned: ScannedPage[] = [];
  for (const number of [...textless, ...sparse].sort((a, b) => a - b)) {
    const page = await pdf.getPage(number);
    const list = await page.getOperatorList();
    const { width, height } = page.getViewport({ scale: 1 });
    const hasText = withText.has(number);
    const scan = hasText
      ? imageCoverage(list.fnArray, list.argsArray, ops, width * height) >= SCAN_COVERAGE
      : list.fnArray.some((fn) => paintsImage.has(fn));
    if (scan) scanned.push({ page: number, width, height, hasText });
    page.cleanup();
  }
  return scanned;
}
