import { getResolvedPDFJS, type getDocumentProxy } from 'unpdf';

type DocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

/** A page to OCR and its size in points (to choose a resolution that keeps its image bounded). */
export interface ScannedPage {
  page: number;
  width: number;
  height: number;
}

/**
 * Of the pages with no text (1-based), those that paint an image: a scan. A page with neither text nor image is
 * blank and needs nothing.
 */
export async function scannedPages(pdf: DocumentProxy, textless: readonly number[]): Promise<ScannedPage[]> {
  if (textless.length === 0) return [];
  const { OPS } = await getResolvedPDFJS();
  const paintsImage = new Set([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
  ]);
  const scanned: ScannedPage[] = [];
  for (const number of textless) {
    const page = await pdf.getPage(number);
    const ops = await page.getOperatorList();
    if (ops.fnArray.some((fn) => paintsImage.has(fn))) {
      const { width, height } = page.getViewport({ scale: 1 });
      scanned.push({ page: number, width, height });
    }
    page.cleanup();
  }
  return scanned;
}
