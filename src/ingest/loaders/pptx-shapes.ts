import type { BoundedDocument } from './bounded-document.ts';
import { chartParts } from './pptx-chart.ts';
import type { SlidePart } from './slide-blocks.ts';
import { attr, childNamed, childrenNamed, findElement, type XmlElement } from './xml-tree.ts';

/** Placeholders that repeat on every slide (number, date, footer) or picture the slide on a notes page: not content. */
const CHROME = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);
const TITLE = new Set(['title', 'ctrTitle']);

/** The text of a DrawingML paragraph (`a:p`): its runs and fields, a line break as a newline. */
function paragraphText(paragraph: XmlElement): string {
  let text = '';
  const walk = (element: XmlElement): void => {
    for (const child of element.children) {
      if (typeof child === 'string') continue;
      if (child.name === 't') {
        for (const run of child.children) if (typeof run === 'string') text += run;
      } else if (child.name === 'br') {
        text += '\n';
      } else if (child.name !== 'pPr' && child.name !== 'rPr') {
        walk(child);
      }
    }
  };
  walk(paragraph);
  return text.replace(/[ \t]+/g, ' ').trim();
}

/** The non-empty paragraphs of a text body (`p:txBody`, `a:txBody`). */
function bodyParagraphs(body: XmlElement | undefined): string[] {
  if (!body) return [];
  return childrenNamed(body, 'p')
    .map(paragraphText)
    .filter((text) => text !== '');
}

/**
 * A DrawingML table (`a:tbl`) as a grid of cell text. A cell that continues a merged one (`hMerge`, `vMerge`) is
 * empty, so every row keeps its columns in place. Cells are counted against the file's table bounds row by row,
 * before the row is built.
 */
function tableGrid(table: XmlElement, doc: BoundedDocument): string[][] {
  const grid: string[][] = [];
  for (const row of childrenNamed(table, 'tr')) {
    const cells = childrenNamed(row, 'tc');
    doc.reserveCells(cells.length, cells.length);
    grid.push(
      cells.map((cell) =>
        attr(cell, 'hMerge') === '1' || attr(cell, 'vMerge') === '1'
          ? ''
          : bodyParagraphs(childNamed(cell, 'txBody')).join(' '),
      ),
    );
  }
  return grid;
}

/** The parts a slide links to by relationship id: a chart's part (parsed), a picture's zip entry. */
export interface SlideLinks {
  chart(relationshipId: string): XmlElement | undefined;
  picture(relationshipId: string): string | undefined;
}

const NO_LINKS: SlideLinks = { chart: () => undefined, picture: () => undefined };

/** What a slide's shape tree (`p:spTree`) says, in the order it is drawn. */
export interface ShapeText {
  title?: string;
  parts: SlidePart[];
}

/**
 * Reads a slide's (or notes page's) shapes in document order — the order PowerPoint draws and reads them aloud —
 * into its title (the first title placeholder) and its paragraphs, tables, charts and pictures (found through
 * `links`). Groups are read through; SmartArt diagrams are passed over.
 */
export function readShapes(tree: XmlElement, doc: BoundedDocument, links: SlideLinks = NO_LINKS): ShapeText {
  const out: ShapeText = { parts: [] };
  const visit = (container: XmlElement): void => {
    for (const shape of container.children) {
      if (typeof shape === 'string') continue;
      if (shape.name === 'grpSp') {
        visit(shape);
      } else if (shape.name === 'AlternateContent') {
        // The same content twice, for newer and older readers: the fallback is what every reader understands.
        const choice = childNamed(shape, 'Fallback') ?? childNamed(shape, 'Choice');
        if (choice) visit(choice);
      } else if (shape.name === 'sp') {
        const type = findElement(childNamed(shape, 'nvSpPr') ?? shape, 'ph')?.attrs.type ?? '';
        if (CHROME.has(type)) continue;
        const paragraphs = bodyParagraphs(childNamed(shape, 'txBody'));
        if (TITLE.has(type) && out.title === undefined && paragraphs.length > 0) {
          out.title = paragraphs.join(' ').replace(/\s+/g, ' ');
          continue;
        }
        for (const text of paragraphs) out.parts.push({ kind: 'text', text });
      } else if (shape.name === 'pic') {
        const blip = findElement(shape, 'blip');
        const entry = blip ? links.picture(attr(blip, 'embed', true) ?? '') : undefined;
        if (entry) out.parts.push({ kind: 'picture', entry });
      } else if (shape.name === 'graphicFrame') {
        const table = findElement(shape, 'tbl');
        const chart = table ? undefined : findElement(shape, 'chart');
        const chartPart = chart ? links.chart(attr(chart, 'id', true) ?? '') : undefined;
        if (table) out.parts.push({ kind: 'table', grid: tableGrid(table, doc) });
        else if (chartPart) out.parts.push(...chartParts(chartPart, doc));
      }
    }
  };
  const spTree = findElement(tree, 'spTree');
  if (spTree) visit(spTree);
  return out;
}
