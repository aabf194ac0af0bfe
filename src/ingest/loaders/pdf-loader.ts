import { basename } from 'node:path';
import { getDocumentProxy } from 'unpdf';
import type { Block, LoadedDocument } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { formatBytes, INGEST_DEFAULTS, limitExceeded, type IngestLimits } from '../limits.ts';
import { inflatesBeyond } from './pdf-streams.ts';
import { readScans } from '../ocr/index.ts';
import type { Loader } from './loader.ts';
import { readingOrder } from './pdf-reading-order.ts';
import { mendLigatures, scriptMark } from './pdf-scripts.ts';
import { pageLayout } from '../pdf-tables/page-gutter.ts';
import { findPageTables, insideTable, pdfTables, withTableBlocks, type FoundTable } from '../pdf-tables/index.ts';
import { fileStem } from './decode-text.ts';
import { figureCaptions } from './pdf-figures.ts';

/** A text line as laid out on a page (PDF user space: y grows upwards). */
interface PdfTextLine {
  text: string;
  x: number;
  y: number;
  fontSize: number;
  font: string;
  /** Set sideways (e.g. an arXiv stamp in the margin): never a heading. */
  rotated: boolean;
}

interface PositionedItem {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
  font: string;
  rotated: boolean;
}

type DocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

const SENTENCE_END = /[.!?:;)\]"”]$/;
const NUMBERED_HEADING = /^((?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,4})\.?\s+(\p{Lu}.*)$/u;

function pdfError(error: unknown, path: string): IngestError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') {
    return new IngestError(
      'pdf_encrypted',
      `${basename(path)} is encrypted with a password, so its text cannot be read.`,
      {
        cause: error,
        hint: 'Remove the password (e.g. `qpdf --decrypt --password=… in.pdf out.pdf`) and ingest the decrypted copy.',
        details: { path },
      },
    );
  }
  return new IngestError(
    'pdf_corrupt',
    `${basename(path)} is not a readable PDF (${error instanceof Error ? error.message : String(error)}).`,
    {
      cause: error,
      hint: 'Check that the file is complete (not truncated by a download), or re-export it as PDF and ingest it again.',
      details: { path },
    },
  );
}

/** Groups a page's text items into lines: a line ends where the baseline moves or the text jumps back left. */
function pageLines(items: readonly PositionedItem[]): PdfTextLine[] {
  const lines: PdfTextLine[] = [];
  let parts: PositionedItem[] = [];
  let endX = 0;
  const finish = (): void => {
    if (parts.length === 0) return;
    let text = '';
    let previousEnd: number | undefined;
    const charsByFont = new Map<string, number>();
    const charsBySize = new Map<number, number>();
    let base: PositionedItem | undefined;
    let lastMark: string | undefined;
    for (const part of parts) {
      const mark = base ? scriptMark(text, base, part) : undefined;
      if (mark) {
        // `10` + `1` + `9` raised: one exponent.
        text += `${mark === lastMark ? '' : mark}${part.str.trim()}`;
        lastMark = mark;
        previousEnd = part.x + part.width;
        continue;
      }
      lastMark = undefined;
      if (!base || part.fontSize >= base.fontSize * 0.85) base = part;
      // Items without an explicit space but with a visible gap are separate words.
      if (
        previousEnd !== undefined &&
        part.x - previousEnd > part.fontSize * 0.2 &&
        !/\s$/.test(text) &&
        !/^\s/.test(part.str)
      )
        text += ' ';
      text += part.str;
      previousEnd = part.x + part.width;
      const weight = part.str.trim().length;
      charsByFont.set(part.font, (charsByFont.get(part.font) ?? 0) + weight);
      const size = Math.round(part.fontSize * 2) / 2;
      charsBySize.set(size, (charsBySize.get(size) ?? 0) + weight);
    }
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean) {
      const first = parts[0]!;
      lines.push({
        text: clean,
        x: first.x,
        y: first.y,
        fontSize: mostCommon(charsBySize) ?? first.fontSize,
        font: mostCommon(charsByFont) ?? first.font,
        rotated: parts.every((part) => part.rotated),
      });
    }
    parts = [];
  };
  for (const item of items) {
    const line = parts[0];
    const size = Math.max(item.fontSize, line?.fontSize ?? 0);
    if (line && (Math.abs(item.y - line.y) > size * 0.5 || item.x < endX - size * 2)) finish();
    if (item.str === '' && parts.length === 0) continue;
    parts.push(item);
    endX = item.x + item.width;
  }
  finish();
  return lines;
}

function mostCommon<K>(counts: Map<K, number>): K | undefined {
  let best: K | undefined;
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}

/** Hyphenated words written inside lines (`pre-trained`): a line-end hyphen in such a word is kept. */
function hyphenatedWords(lines: readonly PdfTextLine[]): Set<string> {
  const words = new Set<string>();
  for (const line of lines) {
    for (const match of line.text.matchAll(/\p{L}+(?:-\p{L}+)+/gu)) words.add(match[0].toLowerCase());
  }
  return words;
}

/** Joins a line to the paragraph before it, undoing end-of-line hyphenation (`representa-` + `tion`). */
function joinLine(paragraph: string, line: string, keepHyphen: Set<string>): string {
  // Only the paragraph's last word matters: matching the whole paragraph at every join grows with its square.
  const lastWord = paragraph.slice(paragraph.lastIndexOf(' ') + 1);
  const split = /(\p{L}+)-$/u.exec(lastWord);
  const next = /^(\p{Ll}+)/u.exec(line);
  if (split?.[1] && next?.[1]) {
    const hyphenated = `${split[1]}-${next[1]}`.toLowerCase();
    return keepHyphen.has(hyphenated) ? paragraph + line : paragraph.slice(0, -1) + line;
  }
  // A URL broken at a slash continues on the next line without a space.
  if (/https?:\/\/\S*\/$/.test(lastWord) && /^[\w.~%-]/.test(line)) return paragraph + line;
  return `${paragraph} ${line}`;
}

interface PageStyle {
  bodySize: number;
  bodyFont: string;
}

/** `heading level` or undefined: a numbered line in a heading font, or a short line set larger than body text. */
function headingLevel(line: PdfTextLine, style: PageStyle): number | undefined {
  const text = line.text;
  if (
    line.rotated ||
    text.length < 2 ||
    text.length > 100 ||
    !/\p{L}{2}/u.test(text) ||
    line.fontSize < style.bodySize * 0.9
  ) {
    return undefined;
  }
  const larger = line.fontSize >= style.bodySize * 1.08;
  const emphasised = line.font !== style.bodyFont || larger;
  if (!emphasised) return undefined;
  const numbered = NUMBERED_HEADING.exec(text);
  if (numbered?.[1] && !/[.,;]$/.test(text)) return numbered[1].split('.').length;
  if (larger && !/[.,;]$/.test(text)) return 1;
  return undefined;
}

/** Lines of one page → heading and paragraph blocks. */
function pageBlocks(lines: readonly PdfTextLine[], page: number, style: PageStyle, keepHyphen: Set<string>): Block[] {
  const blocks: Block[] = [];
  let paragraph: { text: string; fontSize: number; last: PdfTextLine } | undefined;
  let lastHeadingLine: PdfTextLine | undefined;
  const flush = (): void => {
    if (paragraph) blocks.push({ kind: 'text', text: paragraph.text, page });
    paragraph = undefined;
  };
  for (const line of lines) {
    const level = headingLevel(line, style);
    if (level !== undefined) {
      flush();
      const previous = blocks.at(-1);
      // A title set over two lines is one heading.
      const wrapped =
        previous?.kind === 'heading' &&
        previous.level === level &&
        !NUMBERED_HEADING.test(line.text) &&
        lastHeadingLine?.fontSize === line.fontSize &&
        lastHeadingLine.y - line.y < line.fontSize * 1.6;
      if (wrapped && previous?.kind === 'heading') {
        previous.text = `${previous.text} ${line.text}`;
      } else {
        blocks.push({ kind: 'heading', level, text: line.text, page });
      }
      lastHeadingLine = line;
      continue;
    }
    const previous = blocks.at(-1);
    // The second line of a long heading, in the heading's font right below it.
    if (
      previous?.kind === 'heading' &&
      lastHeadingLine &&
      !paragraph &&
      line.font === lastHeadingLine.font &&
      line.font !== style.bodyFont &&
      Math.abs(line.fontSize - lastHeadingLine.fontSize) < 0.5 &&
      lastHeadingLine.y - line.y < line.fontSize * 1.6 &&
      lastHeadingLine.y > line.y &&
      line.text.length <= 60 &&
      !SENTENCE_END.test(line.text)
    ) {
      previous.text = `${previous.text} ${line.text}`;
      lastHeadingLine = line;
      continue;
    }
    lastHeadingLine = undefined;
    if (paragraph) {
      const last = paragraph.last;
      const size = Math.max(line.fontSize, last.fontSize);
      const drop = last.y - line.y;
      const continues = /-$/.test(paragraph.text) || /^\p{Ll}/u.test(line.text);
      const newColumn = drop < -size && !continues;
      const gap = drop > size * 1.45;
      const indented = line.x - last.x > size * 0.7 && line.x - last.x < size * 5 && SENTENCE_END.test(last.text);
      const otherFont = Math.abs(line.fontSize - paragraph.fontSize) > 1;
      if (newColumn || gap || indented || otherFont) flush();
    }
    paragraph = paragraph
      ? { text: joinLine(paragraph.text, line.text, keepHyphen), fontSize: paragraph.fontSize, last: line }
      : { text: line.text, fontSize: line.fontSize, last: line };
  }
  flush();
  return blocks;
}

/** Every page's lines; stops with `maxDocumentChars` as soon as the text read so far is over it, and with `maxDocumentSeconds` between pages. */
async function readPages(
  pdf: DocumentProxy,
  path: string,
  limits: IngestLimits,
  found: FoundTable[][],
): Promise<PdfTextLine[][]> {
  const pages: PdfTextLine[][] = [];
  let chars = 0;
  const deadline = performance.now() + limits.maxDocumentSeconds * 1000;
  for (let number = 1; number <= pdf.numPages; number += 1) {
    if (performance.now() > deadline)
      throw limitExceeded(
        'maxDocumentSeconds',
        basename(path),
        `took more than ${limits.maxDocumentSeconds} s to read, by page ${number - 1} of ${pdf.numPages}`,
        limits,
      );
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const items: PositionedItem[] = [];
    for (const item of content.items) {
      if (!('str' in item)) continue;
      chars += item.str.length;
      const str = mendLigatures(item.str);
      const [a = 0, b = 0, , d = 0, x = 0, y = 0] = item.transform as number[];
      items.push({
        str,
        x,
        y,
        width: item.width,
        fontSize: Math.hypot(a, b) || Math.abs(d),
        font: item.fontName,
        rotated: Math.abs(b) > 1e-3,
      });
    }
    const layout = pageLayout(items);
    pages.push(pageLines(readingOrder(items, layout.gutter)));
    found.push(findPageTables(items, number, layout));
    page.cleanup();
    if (chars > limits.maxDocumentChars) {
      throw limitExceeded(
        'maxDocumentChars',
        basename(path),
        `holds more than ${limits.maxDocumentChars.toLocaleString('en-US')} characters of text by page ${number}`,
        limits,
      );
    }
  }
  return pages;
}

function documentStyle(pages: readonly PdfTextLine[][]): PageStyle {
  const sizes = new Map<number, number>();
  const fonts = new Map<string, number>();
  for (const line of pages.flat()) {
    const size = Math.round(line.fontSize * 2) / 2;
    sizes.set(size, (sizes.get(size) ?? 0) + line.text.length);
    fonts.set(line.font, (fonts.get(line.font) ?? 0) + line.text.length);
  }
  return { bodySize: mostCommon(sizes) ?? 10, bodyFont: mostCommon(fonts) ?? '' };
}

/** PDF via pdf.js (unpdf): paragraphs and headings per page, every block with its 1-based page. */
export const pdfLoader: Loader = {
  type: 'pdf',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    if (await inflatesBeyond(bytes, limits.maxExpandedBytes))
      throw limitExceeded(
        'maxExpandedBytes',
        basename(path),
        `inflates to more than ${formatBytes(limits.maxExpandedBytes)} in its compressed streams`,
        limits,
      );
    let pdf: DocumentProxy;
    try {
      // pdf.js may take ownership of the buffer it is given, so it gets a copy.
      pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    } catch (error) {
      throw pdfError(error, path);
    }
    try {
      let pages: PdfTextLine[][];
      let metaTitle = '';
      const found: FoundTable[][] = [];
      let scans = new Map<number, Block[]>();
      try {
        pages = await readPages(pdf, path, limits, found);
        // Pages without a text layer that show an image, or with a stamp's worth of text over a page-sized image,
        // are scans, read through OCR.
        const pageChars = pages.map((lines) => lines.reduce((chars, line) => chars + line.text.length, 0));
        scans = await readScans(pdf, bytes, basename(path), pageChars, limits.ocr);
        const meta = await pdf.getMetadata().catch(() => undefined);
        const info = meta?.info as { Title?: unknown } | undefined;
        metaTitle = typeof info?.Title === 'string' ? info.Title.trim() : '';
      } catch (error) {
        throw IngestError.isInstance(error) ? error : pdfError(error, path);
      }
      // A detected table's lines are in its rows, not in the page's paragraphs.
      const detected = pdfTables(found, fileStem(path), basename(path), limits);
      pages = pages.map((lines, index) =>
        lines.filter((line) => !insideTable(line.x, line.y, detected.boxesOnPage.get(index + 1))),
      );
      const style = documentStyle(pages);
      const keepHyphen = hyphenatedWords(pages.flat());
      const blocks = pages.flatMap(
        (lines, index) => scans.get(index + 1) ?? pageBlocks(lines, index + 1, style, keepHyphen),
      );
      const firstPageHeadings = blocks.filter((block) => block.page === 1 && block.kind === 'heading');
      const title = metaTitle || firstPageHeadings[0]?.text;
      const tables = detected.tables.length > 0 ? { tables: detected.tables } : {};
      // Captioned figures are reported, not described here: a vision model may read them during ingestion.
      const figures = figureCaptions(blocks);
      return {
        blocks: withTableBlocks(blocks, detected),
        pageCount: pdf.numPages,
        ...tables,
        ...(figures.length > 0 ? { figures } : {}),
        ...(title ? { title } : {}),
      };
    } finally {
      await pdf.destroy();
    }
  },
};
