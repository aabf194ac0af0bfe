import { attr, type XmlElement } from './xml-tree.ts';

/** What a walk over OpenDocument text content finds, in reading order. */
export interface OdfTextSink {
  heading(level: number, text: string): void;
  paragraph(text: string): void;
  table(table: XmlElement): void;
}

/**
 * Elements with no reading text: declarations, forms, comments, the list of tracked changes (it holds *deleted*
 * text), generated tables of contents (they repeat the headings), and the note mark (`1`) inside a sentence.
 */
const SKIP = new Set([
  'tracked-changes',
  'sequence-decls',
  'variable-decls',
  'user-field-decls',
  'forms',
  'annotation',
  'table-of-content',
  'note-citation',
  'page-thumbnail',
]);

/** Inside a paragraph: content that is a block of its own (a note's body, a text frame), read after the paragraph. */
const NESTED = new Set(['note', 'frame', 'custom-shape', 'rect', 'g']);

/**
 * A paragraph's (`text:p`, `text:h`) text. Whitespace in the XML collapses to one space, as ODF says it does; the
 * explicit `text:s` (however many spaces its `text:c` asks for: one is enough to read, and a count is no cause to
 * allocate), `text:tab` and `text:line-break` are kept. Notes and frames anchored in the paragraph go to `nested`.
 */
export function paragraphText(paragraph: XmlElement, nested: XmlElement[] = []): string {
  let text = '';
  const walk = (element: XmlElement): void => {
    for (const child of element.children) {
      if (typeof child === 'string') {
        text += child.replace(/[ \t\r\n]+/g, ' ');
      } else if (child.name === 's' || child.name === 'tab') {
        text += ' ';
      } else if (child.name === 'line-break') {
        text += '\n';
      } else if (NESTED.has(child.name)) {
        nested.push(child);
      } else if (!SKIP.has(child.name)) {
        walk(child);
      }
    }
  };
  walk(paragraph);
  return text
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .join('\n')
    .trim();
}

/**
 * Walks OpenDocument text content (`office:text`, a text box, a list item, a section) in document order: headings
 * (`text:h`, level from `text:outline-level`), paragraphs, list items (nested lists included) and tables. Unknown
 * elements are read through, so text inside sections, indexes' bodies or `draw:a` links is not lost.
 */
export function walkOdfText(container: XmlElement, sink: OdfTextSink): void {
  for (const child of container.children) {
    if (typeof child === 'string' || SKIP.has(child.name)) continue;
    if (child.name === 'h' || child.name === 'p') {
      const nested: XmlElement[] = [];
      const text = paragraphText(child, nested);
      if (text !== '') {
        if (child.name === 'h') {
          const level = Number.parseInt(attr(child, 'outline-level') ?? '1', 10);
          sink.heading(Number.isFinite(level) ? Math.min(Math.max(level, 1), 6) : 1, text.replace(/\s+/g, ' '));
        } else {
          sink.paragraph(text);
        }
      }
      for (const element of nested) walkOdfText(element, sink);
    } else if (child.name === 'table') {
      sink.table(child);
    } else {
      walkOdfText(child, sink);
    }
  }
}
