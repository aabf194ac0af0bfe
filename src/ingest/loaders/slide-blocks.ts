import type { BoundedDocument } from './bounded-document.ts';

/**
 * What a slide holds in reading order: paragraphs of its shapes, its tables (as grids of cell text), and its
 * pictures (the zip entry of each), which `readSlidePictures` reads by OCR or drops before the slide becomes blocks.
 */
export type SlidePart =
  | { kind: 'text'; text: string }
  | { kind: 'table'; grid: string[][] }
  | { kind: 'picture'; entry: string };

/** One slide of a deck (PPTX or ODP), in presentation order. */
export interface Slide {
  title?: string;
  body: SlidePart[];
  /** Paragraphs of the speaker notes. */
  notes: string[];
}

/** The heading over a slide's speaker notes, so their chunks' heading path says they are notes, not slide text. */
export const NOTES_HEADING = 'Speaker notes';

/**
 * Slides → blocks, every block carrying its slide's number as `page` (citations name the slide): a level-1 heading
 * per slide (its title, else `Slide <n>`), so each slide is a chapter of its own and no chunk spans two slides; the
 * body in order, each table as a SQL table (`<stem> / slide <n>`, `… / table <k>` when a slide has several) with
 * its row blocks; then the notes under a level-2 `Speaker notes` heading. A slide with nothing on it adds nothing.
 */
export function addSlides(doc: BoundedDocument, stem: string, slides: readonly Slide[]): void {
  slides.forEach((slide, index) => {
    const page = index + 1;
    const notes = slide.notes.filter((note) => note.trim() !== '');
    const content = slide.body.some((part) => part.kind !== 'picture');
    if (!slide.title && !content && notes.length === 0) return;
    doc.push({ kind: 'heading', level: 1, text: slide.title || `Slide ${page}`, page });
    const tables = slide.body.filter((part) => part.kind === 'table').length;
    let table = 0;
    for (const part of slide.body) {
      if (part.kind === 'picture') continue; // not read: it had text beside it, or OCR is off
      if (part.kind === 'text') {
        doc.push({ kind: 'text', text: part.text, page });
        continue;
      }
      table += 1;
      doc.table(`${stem} / slide ${page}${tables > 1 ? ` / table ${table}` : ''}`, part.grid, 2, page);
    }
    if (notes.length === 0) return;
    doc.push({ kind: 'heading', level: 2, text: NOTES_HEADING, page });
    for (const note of notes) doc.push({ kind: 'text', text: note, page });
  });
}
