export { readScans } from './read-scans.ts';
export { ocrPages, type OcrRequest } from './ocr-pages.ts';
export { scannedPages, type ScannedPage } from './scanned-pages.ts';
export { detectOcrTools, type OcrTools } from './ocr-tools.ts';
export { removeCjkSpaces } from './cjk-spacing.ts';
export { readImageHeader, type ImageHeader } from './image-header.ts';
export { checkImageBounds } from './image-bounds.ts';
export { ocrImages, type OcrImage } from './ocr-images.ts';
export { ocrTextBlocks } from './ocr-text-blocks.ts';
