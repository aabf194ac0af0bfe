import type { BoundedDocument } from './bounded-document.ts';
import type { SlidePart } from './slide-blocks.ts';
import { attr, childNamed, findElement, findElements, type XmlElement } from './xml-tree.ts';

/** The character data directly inside `element`. */
const ownText = (element: XmlElement): string => element.children.filter((child) => typeof child === 'string').join('');

/** The text of every `a:t` (rich text) or `c:v` (cached value) under `element`, joined by spaces. */
function textOf(element: XmlElement | undefined, name: 't' | 'v'): string {
  if (!element) return '';
  return findElements(element, name).map(ownText).join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * The cached points of a category or value reference (`c:cat`, `c:val`, `c:xVal`, `c:yVal`) by index. Only the points
 * written are kept: a `c:ptCount` or an `idx` of a billion allocates nothing.
 */
function points(element: XmlElement | undefined): Map<number, string> {
  const byIndex = new Map<number, string>();
  for (const point of element ? findElements(element, 'pt') : []) {
    const index = Number(attr(point, 'idx'));
    const value = childNamed(point, 'v');
    if (Number.isSafeInteger(index) && index >= 0) byIndex.set(index, value ? ownText(value).trim() : '');
  }
  return byIndex;
}

/**
 * A chart part (`ppt/charts/chart<n>.xml`) as what a reader sees: its title, and its data as a table — one row per
 * category, one column per series — from the values PowerPoint caches in the part (the embedded workbook is not
 * opened). The table's cells are counted against the file's bounds before it is built.
 */
export function chartParts(chart: XmlElement, doc: BoundedDocument): SlidePart[] {
  const parts: SlidePart[] = [];
  const title = textOf(childNamed(findElement(chart, 'chart') ?? chart, 'title'), 't');
  if (title) parts.push({ kind: 'text', text: `Chart: ${title}` });
  const series = findElements(chart, 'ser').map((ser, index) => ({
    name: textOf(childNamed(ser, 'tx'), 'v') || `Series ${index + 1}`,
    categories: points(childNamed(ser, 'cat') ?? childNamed(ser, 'xVal')),
    values: points(childNamed(ser, 'val') ?? childNamed(ser, 'yVal')),
  }));
  if (series.length === 0) return parts;
  const indexes = new Set<number>();
  for (const { categories, values } of series)
    for (const index of [...categories.keys(), ...values.keys()]) indexes.add(index);
  const rows = [...indexes].sort((a, b) => a - b);
  doc.reserveCells((rows.length + 1) * (series.length + 1), series.length + 1);
  const grid = [['Category', ...series.map((entry) => entry.name)]];
  for (const index of rows) {
    const category = series.map((entry) => entry.categories.get(index)).find((value) => value) ?? String(index + 1);
    grid.push([category, ...series.map((entry) => entry.values.get(index) ?? '')]);
  }
  parts.push({ kind: 'table', grid });
  return parts;
}
