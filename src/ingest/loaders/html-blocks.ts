import { DomHandler, DomUtils, Parser } from 'htmlparser2';
import type { Block, LoadedDocument } from '../../domain/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { tooDeep } from './xml-scan.ts';

type HtmlDocument = DomHandler['root'];
type HtmlNode = HtmlDocument['children'][number];
type HtmlElement = Extract<HtmlNode, { name: string; attribs: Record<string, string> }>;
type HtmlText = Extract<HtmlNode, { type: 'text' }>;

/** Chrome and non-content: dropped with everything inside. */
const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'header',
  'footer',
  'aside',
  'head',
  'svg',
  'iframe',
  'button',
  'select',
  'form',
]);
/** Elements whose content is a paragraph of its own. */
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'blockquote',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'hr',
  'body',
  'html',
]);
const HEADING = /^h([1-6])$/;
/** Stands for a `<br>` while whitespace is collapsed. */
const LINE_BREAK = '\u2028';

const isElement = (node: HtmlNode): node is HtmlElement => 'name' in node && 'attribs' in node;
const isText = (node: HtmlNode): node is HtmlText => node.type === 'text';
const hasAncestorNamed = (node: HtmlNode, name: string): boolean => {
  for (let parent = node.parent; parent; parent = parent.parent)
    if ('name' in parent && parent.name === name) return true;
  return false;
};
const collapse = (text: string): string =>
  text
    .replace(/[^\S\u2028]+/g, ' ')
    .replace(/ ?\u2028 ?/g, LINE_BREAK)
    .trim()
    .replaceAll(LINE_BREAK, '\n');

function textOf(node: HtmlNode): string {
  if (isText(node)) return node.data;
  if (!isElement(node) || SKIP.has(node.name)) return '';
  if (node.name === 'br') return LINE_BREAK;
  const inner = node.children.map((child) => textOf(child as HtmlNode)).join('');
  // Cells and block children need a separator or their words run together.
  return BLOCK.has(node.name) || node.name === 'td' || node.name === 'th' ? ` ${inner} ` : inner;
}

class BlockCollector {
  readonly blocks: Block[] = [];
  firstH1: string | undefined;
  private inline = '';
  private lastHeading: string | undefined;

  flush(): void {
    const text = collapse(this.inline);
    if (text) this.blocks.push({ kind: 'text', text });
    this.inline = '';
  }

  walk(node: HtmlNode): void {
    if (isText(node)) {
      this.inline += node.data;
      return;
    }
    if (!isElement(node)) return;
    const name = node.name.toLowerCase();
    if (SKIP.has(name)) return;
    if (name === 'br') {
      this.inline += LINE_BREAK;
      return;
    }
    const heading = HEADING.exec(name);
    if (heading?.[1]) {
      this.flush();
      const text = collapse(textOf(node)).replace(/\n/g, ' ');
      if (text) {
        const level = Number(heading[1]);
        this.blocks.push({ kind: 'heading', level, text });
        this.lastHeading = text;
        if (level === 1 && this.firstH1 === undefined) this.firstH1 = text;
      }
      return;
    }
    if (name === 'table') {
      this.flush();
      this.table(node);
      return;
    }
    if (name === 'pre') {
      this.flush();
      const text = DomUtils.textContent(node).replace(/^\n+|\s+$/g, '');
      if (text) this.blocks.push({ kind: 'text', text });
      return;
    }
    const block = BLOCK.has(name);
    if (block) this.flush();
    for (const child of node.children) this.walk(child as HtmlNode);
    if (block) this.flush();
  }

  /** Each row is one `row` block (`header: cell | …`) so a row is never split across chunks. */
  private table(table: HtmlElement): void {
    const rows: HtmlElement[] = [];
    const collectRows = (node: HtmlNode): void => {
      if (!isElement(node)) return;
      if (node.name === 'tr') {
        rows.push(node);
        return;
      }
      if (node !== table && node.name === 'table') return; // nested tables stay inside their cell
      for (const child of node.children) collectRows(child as HtmlNode);
    };
    collectRows(table);
    const caption = table.children.find(
      (child): child is HtmlElement => isElement(child as HtmlNode) && (child as HtmlElement).name === 'caption',
    );
    const captionText = caption ? collapse(textOf(caption)) : '';
    if (captionText) this.blocks.push({ kind: 'text', text: captionText });
    const name = captionText || this.lastHeading;

    const cellsOf = (row: HtmlElement): HtmlElement[] =>
      row.children.filter(
        (child): child is HtmlElement =>
          isElement(child as HtmlNode) && ['td', 'th'].includes((child as HtmlElement).name),
      );
    const rowTexts = rows.map((row) => cellsOf(row).map((cell) => collapse(textOf(cell)).replace(/\n/g, ' ')));
    // Without <th> (Word tables, hand-written HTML) a first row of distinct, non-numeric labels is the header.
    const first = rowTexts[0] ?? [];
    const marked = rows.some(
      (row) =>
        cellsOf(row).some((cell) => cell.name === 'th') ||
        (row.parent !== null && isElement(row.parent as HtmlNode) && (row.parent as HtmlElement).name === 'thead'),
    );
    const labelRow =
      !marked &&
      rows.length >= 2 &&
      first.length >= 2 &&
      first.every((text) => text !== '' && !/^[\d\s.,%$€£+-]+$/.test(text) && text.length <= 60) &&
      new Set(first).size === first.length;
    let header: string[] | undefined;
    for (const [index, row] of rows.entries()) {
      const cells = cellsOf(row);
      const texts = rowTexts[index] ?? [];
      const inHead =
        row.parent !== null && isElement(row.parent as HtmlNode) && (row.parent as HtmlElement).name === 'thead';
      if (
        header === undefined &&
        cells.length > 0 &&
        (inHead || cells.every((cell) => cell.name === 'th') || (labelRow && index === 0))
      ) {
        header = texts;
        continue;
      }
      const text = texts
        .map((value, index) => [header?.[index], value] as const)
        .filter(([, value]) => value !== '')
        .map(([label, value]) => (label ? `${label}: ${value}` : value))
        .join(' | ');
      if (text) this.blocks.push(name ? { kind: 'row', text, table: name } : { kind: 'row', text });
    }
  }
}

/** The nodes holding the main text: `<main>`, else the `<article>`s, else `<body>`, else the whole document. */
function contentRoots(document: HtmlDocument): HtmlNode[] {
  const byName = (name: string): HtmlElement[] =>
    DomUtils.findAll((element) => element.name === name, document.children) as HtmlElement[];
  const main = byName('main')[0];
  if (main) return [main];
  const articles = byName('article');
  const outer = articles.filter((article) => !hasAncestorNamed(article, 'article'));
  if (outer.length > 0) return outer;
  const body = byName('body')[0];
  return body ? [body] : (document.children as HtmlNode[]);
}

/**
 * A DOM builder that stops at `ingest.maxNestingDepth`: the parser's and the walks' cost grows with depth times
 * size (200,000 nested <div>s, 1 MB, took minutes and then overflowed the stack), so a deeper file fails at once.
 */
class DepthBoundedHandler extends DomHandler {
  private depth = 0;

  constructor(
    private readonly maxDepth: number,
    private readonly tooDeep: () => Error,
  ) {
    super();
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    this.depth += 1;
    if (this.depth > this.maxDepth) throw this.tooDeep();
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    this.depth -= 1;
    super.onclosetag();
  }
}

function parseHtml(html: string, name: string, limits: IngestLimits): HtmlDocument {
  const handler = new DepthBoundedHandler(limits.maxNestingDepth, () => tooDeep(name, limits));
  new Parser(handler, { decodeEntities: true, lowerCaseTags: true }).end(html);
  return handler.root;
}

/**
 * HTML → blocks of its main text, with `<title>` (or the first `<h1>`) as title. Also used for DOCX. `name` (the
 * file's) is for the message of a file nested deeper than `limits.maxNestingDepth`.
 */
export function htmlToDocument(
  html: string,
  name = 'The HTML',
  limits: IngestLimits = INGEST_DEFAULTS,
): LoadedDocument {
  const document = parseHtml(html, name, limits);
  const collector = new BlockCollector();
  for (const root of contentRoots(document)) collector.walk(root);
  collector.flush();
  const titleElement = DomUtils.findOne((element) => element.name === 'title', document.children);
  const title =
    (titleElement ? collapse(DomUtils.textContent(titleElement)).replace(/\n/g, ' ') : '') || collector.firstH1;
  return title ? { title, blocks: collector.blocks } : { blocks: collector.blocks };
}
