import { z } from 'zod';

/**
 * OCR of PDF pages that have no text layer (scans), of image files (PNG, JPEG, TIFF) and of the pictures a DOCX or a
 * slide without text shows, as paragraphs of their own: a PDF page is rendered with poppler's `pdftoppm`, and every
 * image is read by `tesseract`, both run as child processes when they are installed. Every run is bounded in time, pixels and output.
 */
export const ocrSchema = z
  .object({
    enabled: z
      .boolean()
      .default(true)
      .describe(
        'false: pages without text and the pictures in DOCX files and on slides are skipped (a document of scans alone then fails as empty), and image files fail with ocr_unavailable.',
      ),
    languages: z
      .array(z.string().regex(/^[a-z][a-z0-9_]{1,31}$/, 'a tesseract language name such as eng or chi_sim'))
      .min(1)
      .max(8)
      .default(['eng'])
      .describe(
        'Tesseract language packs, in order (`eng`, `chi_sim`, …): each needs its `tesseract-ocr-<lang>` package.',
      ),
    dpi: z.number().int().min(72).max(600).default(300).describe('Rendering resolution; tesseract reads best at 300.'),
    maxPagePixels: z
      .number()
      .int()
      .min(100_000)
      .max(200_000_000)
      .default(25_000_000)
      .describe(
        'A page larger than this at `dpi` is rendered at a lower resolution (A4 at 300 dpi is 8.7 million pixels).',
      ),
    maxImagePixels: z
      .number()
      .int()
      .min(100_000)
      .max(1_000_000_000)
      .default(50_000_000)
      .describe(
        "Pixels of one image (a TIFF's page, a picture in a DOCX or on a slide) read by OCR, as its header declares them before it is decoded: a larger image fails the file alone (a 48-megapixel photo and A3 at 400 dpi fit).",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(1)
      .max(3_600_000)
      .default(120_000)
      .describe('Milliseconds each tool may run on one page before it is killed and the file fails.'),
    maxPages: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(500)
      .describe(
        "Pages of one document that may go through OCR (a PDF's scanned pages, a TIFF's pages, a DOCX's or a deck's pictures); a document with more fails alone.",
      ),
  })
  .strict()
  .prefault({});

export type OcrConfig = z.infer<typeof ocrSchema>;
