import { envNameOf } from '../../config/env-vars.ts';
import { IngestLimitError } from '../../errors/index.ts';
import type { IngestLimits } from '../limits.ts';
import { checkImageBounds, type ImageHeader, ocrImages, ocrTextBlocks, readImageHeader } from '../ocr/index.ts';
import type { Slide, SlidePart } from './slide-blocks.ts';

/** Smaller pictures are icons and logos, not screenshots or scans of text (the bounds DOCX pictures use). */
const MIN_PIXELS = 400_000;
const MIN_SIDE = 200;

/**
 * The pictures of a deck that may hold its text: a slide with nothing written on it but its title (a screenshot of a
 * table, a scanned page pasted as a slide) has its pictures read by OCR, their text in their place. Pictures beside
 * text on a slide illustrate it and are dropped, as are small ones, and a deck with neither pays nothing. Bounded like
 * a PDF's scans: `ingest.ocr.maxPages` pictures per file, `maxImagePixels` each (from the header, before decoding),
 * `timeoutMs` per picture and `maxDocumentSeconds` in all. With `ingest.ocr.enabled: false` every picture is dropped.
 */
export async function readSlidePictures(
  slides: readonly Slide[],
  pictureBytes: (entry: string) => Buffer | undefined,
  name: string,
  limits: IngestLimits,
): Promise<Slide[]> {
  const wanted: { slide: number; part: number; bytes: Buffer; header: ImageHeader }[] = [];
  slides.forEach((slide, slideIndex) => {
    if (!limits.ocr.enabled || slide.body.some((part) => part.kind !== 'picture')) return;
    slide.body.forEach((part, partIndex) => {
      const bytes = part.kind === 'picture' ? pictureBytes(part.entry) : undefined;
      const header = bytes ? readImageHeader(bytes, 1) : undefined;
      // A picture PowerPoint could not show either (an unreadable header) has no text to give.
      if (!bytes || !header || 'unreadable' in header) return;
      const [{ width, height } = { width: 0, height: 0 }] = header.frames;
      if (width * height < MIN_PIXELS || Math.min(width, height) < MIN_SIDE) return;
      // A slide shows a TIFF's first page only.
      wanted.push({
        slide: slideIndex,
        part: partIndex,
        bytes,
        header: { ...header, frames: header.frames.slice(0, 1) },
      });
    });
  });
  const texts = new Map<string, SlidePart[]>();
  if (wanted.length > 0) {
    const { ocr } = limits;
    if (wanted.length > ocr.maxPages) {
      throw new IngestLimitError(name, `shows ${wanted.length.toLocaleString('en-US')} pictures to read by OCR`, {
        setting: 'ingest.ocr.maxPages',
        env: envNameOf(['ingest', 'ocr', 'maxPages']),
        limit: `${ocr.maxPages.toLocaleString('en-US')} pages`,
      });
    }
    const label = (index: number) => `slide ${(wanted[index]?.slide ?? 0) + 1}`;
    const images = wanted.map((picture, index) => {
      checkImageBounds(`In ${name}, the picture on ${label(index)}`, picture.header, ocr);
      return { bytes: picture.bytes, header: picture.header, label: () => `the picture on ${label(index)}` };
    });
    const many = wanted.length > 1;
    const read = await ocrImages({
      name,
      need: {
        subject: `${name} has ${many ? `${wanted.length} slides` : 'a slide'} of pictures that may hold text`,
        them: many ? 'them' : 'it',
        orElse: 'set ingest.ocr.enabled: false to ingest its text only',
        details: { pictures: wanted.length },
      },
      images,
      limits,
      // A picture tesseract cannot decode shows nothing on the slide either: the deck's text is still read.
      unreadable: 'skip',
    });
    wanted.forEach((picture, index) => {
      const blocks = ocrTextBlocks(read[index]?.[0] ?? '', picture.slide + 1);
      texts.set(
        `${picture.slide}:${picture.part}`,
        blocks.map((block) => ({ kind: 'text', text: block.text })),
      );
    });
  }
  return slides.map((slide, slideIndex) => ({
    ...slide,
    body: slide.body.flatMap((part, partIndex) =>
      part.kind === 'picture' ? (texts.get(`${slideIndex}:${partIndex}`) ?? []) : [part],
    ),
  }));
}
