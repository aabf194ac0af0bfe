import { basename } from 'node:path';
import type { LoadedDocument } from '../../domain/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { BoundedDocument } from './bounded-document.ts';
import { fileStem } from './decode-text.ts';
import type { Loader } from './loader.ts';
import { metaTitle, ODP, openOpenDocument } from './odf-package.ts';
import { readOdfTable } from './odf-table.ts';
import { walkOdfText } from './odf-text.ts';
import { addSlides, type Slide, type SlidePart } from './slide-blocks.ts';
import { readSlidePictures } from './slide-pictures.ts';
import { attr, childNamed, childrenNamed, type XmlElement } from './xml-tree.ts';

/** Frames that repeat on every slide (number, footer, date) or picture the slide on its notes page: not content. */
const CHROME = new Set(['page-number', 'footer', 'date-time', 'header', 'handout']);

/** The paragraphs and tables of a slide's (or notes page's) shapes, in document order; the first title apart. */
function readShapes(page: XmlElement, doc: BoundedDocument): { title?: string; parts: SlidePart[] } {
  let title: string | undefined;
  const parts: SlidePart[] = [];
  for (const shape of page.children) {
    if (typeof shape === 'string' || shape.name === 'notes' || shape.name === 'page-thumbnail') continue;
    const kind = attr(shape, 'class') ?? '';
    if (CHROME.has(kind)) continue;
    // A picture frame (`draw:frame/draw:image`, its file under `Pictures/`): for OCR when the slide has no text.
    const image = shape.name === 'frame' ? childNamed(shape, 'image') : undefined;
    const href = image ? attr(image, 'href') : undefined;
    if (href) {
      parts.push({ kind: 'picture', entry: href.replace(/^\.\//, '') });
      continue;
    }
    const texts: string[] = [];
    walkOdfText(shape, {
      heading: (_, text) => texts.push(text),
      paragraph: (text) => texts.push(text),
      table: (table) => parts.push({ kind: 'table', grid: readOdfTable(table, doc) }),
    });
    if (kind === 'title' && title === undefined && texts.length > 0) {
      title = texts.join(' ').replace(/\s+/g, ' ');
      continue;
    }
    for (const text of texts) parts.push({ kind: 'text', text });
  }
  return title === undefined ? { parts } : { title, parts };
}

/**
 * ODP: the slides (`draw:page`) in document order, which is the order of the show, each with its title (the
 * `presentation:class="title"` frame), text, tables and speaker notes (`presentation:notes`); blocks as for PPTX
 * (`addSlides`), `pageCount` the number of slides; a slide of pictures alone has them read by OCR
 * (`readSlidePictures`).
 */
export const odpLoader: Loader = {
  type: 'odp',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const { pkg, body } = openOpenDocument(bytes, path, limits, ODP, { pictures: limits.ocr.enabled });
    const doc = new BoundedDocument(basename(path), limits);
    const slides: Slide[] = childrenNamed(body, 'page').map((page) => {
      const { title, parts } = readShapes(page, doc);
      const notesPage = childNamed(page, 'notes');
      const notes = notesPage
        ? readShapes(notesPage, doc).parts.flatMap((part) => (part.kind === 'text' ? [part.text] : []))
        : [];
      return { ...(title ? { title } : {}), body: parts, notes };
    });
    const name = basename(path);
    addSlides(doc, fileStem(path), await readSlidePictures(slides, (entry) => pkg.picture(entry), name, limits));
    return doc.result({
      title: metaTitle(pkg) ?? slides.find((slide) => slide.title)?.title,
      pageCount: slides.length,
    });
  },
};
