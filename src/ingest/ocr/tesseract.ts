import type { OcrConfig } from '../../config/ocr-schema.ts';
import { runTool, type ToolResult } from './run-tool.ts';

/** Bytes of text tesseract may print for one page (a dense page is ≈ 10 KB). */
export const MAX_PAGE_TEXT_BYTES = 1024 * 1024;

/**
 * Reads the text of the image at `image` (a file in a private directory) with the languages of `ingest.ocr`, killed
 * past `ingest.ocr.timeoutMs`. `frame` (0-based) picks one page of a multi-page TIFF, so that each page is its own
 * bounded run and its text keeps its page number.
 */
export function runTesseract(
  image: string,
  config: OcrConfig,
  env: NodeJS.ProcessEnv,
  cwd: string,
  frame?: number,
): Promise<ToolResult> {
  const args = [image, 'stdout', '-l', config.languages.join('+'), '--psm', '3'];
  if (frame !== undefined) args.push('-c', `tessedit_page_number=${frame}`);
  return runTool('tesseract', args, {
    timeoutMs: config.timeoutMs,
    maxOutputBytes: MAX_PAGE_TEXT_BYTES,
    // One thread per page: documents on other workers keep their share of the cores.
    env: { ...env, OMP_THREAD_LIMIT: '1' },
    cwd,
  });
}
