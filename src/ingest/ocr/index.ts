export { readScans } from './read-scans.ts';
export { ocrPages, type OcrRequest } from './ocr-pages.ts';
export { scannedPages, type ScannedPage } from './scanned-pages.ts';
export { detectOcrTools, type OcrTools } from './ocr-tools.ts';
export { removeCjkSpaces } from './cjk-spacing.ts';
