import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IngestError } from '../../errors/index.ts';
import { limitExceeded, type IngestLimits } from '../limits.ts';
import type { ImageHeader } from './image-header.ts';
import { requireOcrTools, type OcrNeed } from './ocr-availability.ts';
import type { ToolFailure } from './run-tool.ts';
import { MAX_PAGE_TEXT_BYTES, runTesseract } from './tesseract.ts';

/** An image to read: its bytes, its header (already within bounds), and how a message names it (`page 2`, `picture 3`). */
export interface OcrImage {
  bytes: Buffer;
  header: ImageHeader;
  /** Names frame `index` (0-based) in messages. */
  label: (frame: number) => string;
}

export interface ImagesOcrRequest {
  /** The file's name, for messages. */
  name: string;
  /** What needs OCR, for the message when the tools are missing. */
  need: OcrNeed;
  images: readonly OcrImage[];
  /** `ingest.ocr` for the tool runs, `ingest.maxDocumentSeconds` for the whole file. */
  limits: IngestLimits;
  /** A frame tesseract cannot decode: the file fails as corrupt (`fail`), or the frame reads as no text (`skip`). */
  unreadable: 'fail' | 'skip';
  /** Where the tools are looked up (`PATH`); the process's environment by default. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Reads every frame of every image with tesseract, one bounded child process per frame, so a TIFF's pages keep their
 * numbers and no run holds more than one page: the text of each frame, by image. The images' headers were checked
 * against the pixel and page bounds before this; the file's time is checked between frames.
 */
export async function ocrImages(request: ImagesOcrRequest): Promise<string[][]> {
  const { images, limits, name } = request;
  if (images.length === 0) return [];
  const env = request.env ?? process.env;
  await requireOcrTools(request.need, ['tesseract'], limits.ocr, env);
  const deadline = performance.now() + limits.maxDocumentSeconds * 1000;
  // A private directory (mode 0700) that only this call uses, removed whatever happens.
  const dir = await mkdtemp(join(tmpdir(), 'evident-ocr-'));
  try {
    const texts: string[][] = [];
    for (const [index, image] of images.entries()) {
      // Only bytes whose header named them a PNG, JPEG or TIFF get here: tesseract reads any other file it is given
      // as a list of image paths to open.
      const path = join(dir, `image-${index}.${image.header.format}`);
      await writeFile(path, image.bytes, { mode: 0o600 });
      const frames: string[] = [];
      // A TIFF is always read one named page at a time: unnamed, tesseract reads every page of the file, including
      // pages the header check was not asked to admit (a DOCX shows a TIFF's first page only).
      const paged = image.header.format === 'tiff';
      for (let frame = 0; frame < image.header.frames.length; frame += 1) {
        if (performance.now() > deadline)
          throw limitExceeded(
            'maxDocumentSeconds',
            name,
            `took more than ${limits.maxDocumentSeconds} s to read, by ${image.label(frame)}`,
            limits,
          );
        const ocr = await runTesseract(path, limits.ocr, env, dir, paged ? frame : undefined);
        if (ocr.ok) frames.push(ocr.stdout);
        else if (ocr.failure.kind === 'failed' && request.unreadable === 'skip') frames.push('');
        else throw imageToolError(ocr.failure, image.label(frame), request);
      }
      texts.push(frames);
      await rm(path, { force: true });
    }
    return texts;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function imageToolError(failure: ToolFailure, label: string, request: ImagesOcrRequest): IngestError {
  const { name, limits } = request;
  const details = { image: label, tool: 'tesseract' };
  switch (failure.kind) {
    case 'missing':
      return new IngestError(
        'ocr_unavailable',
        `${request.need.subject}; install tesseract-ocr to read ${request.need.them}.`,
        {
          hint: `Install the OCR tools and ingest it again, or ${request.need.orElse}.`,
          details,
        },
      );
    case 'timeout':
      return new IngestError(
        'ocr_timeout',
        `In ${name}, tesseract ran longer than ingest.ocr.timeoutMs (${limits.ocr.timeoutMs.toLocaleString('en-US')} ms) on ${label}.`,
        { hint: 'Raise ingest.ocr.timeoutMs, or save the image at a lower resolution, and ingest it again.', details },
      );
    case 'output_too_large':
      return new IngestError(
        'ocr_failed',
        `In ${name}, tesseract wrote more than ${MAX_PAGE_TEXT_BYTES / 1024 / 1024} MiB for ${label}.`,
        { hint: 'The image is not a readable scan; remove it or leave the file out.', details },
      );
    case 'failed':
      return new IngestError('file_corrupt', `In ${name}, ${label} could not be decoded (${failure.message}).`, {
        hint: 'Open it in an image viewer and save it again (PNG keeps a scan sharp), then ingest it again.',
        details,
      });
  }
}
