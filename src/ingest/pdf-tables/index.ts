import type { Block, TableData } from '../../domain/index.ts';
import type { IngestLimits } from '../limits.ts';
import { checkTableShape } from '../loaders/tables.ts';
import { buildPdfTable } from './build-table.ts';
import { joinAcrossPages } from './join-pages.ts';
import type { FoundTable, TableBox } from './page-text.ts';

export { findPageTables } from './find-tables.ts';
export type { FoundTable, PageTextItem } from './page-text.ts';

/** The tables of a PDF, the blocks to add after each page's paragraphs, and where on each page they sit. */
export interface PdfTables {
  tables: TableData[];
  /** Blocks of tables set at the top of a page (a float above the text): they open the page, under the heading before. */
  blocksBeforePage: Map<number, Block[]>;
  blocksAfterPage: Map<number, Block[]>;
  boxesOnPage: Map<number, TableBox[]>;
}

/**
 * Every page's found tables → tables joined across pages, typed, bounded by the table limits (`name` is the file's
 * name in the error), with their searchable blocks.
 */
export function pdfTables(
  pages: readonly (readonly FoundTable[])[],
  stem: string,
  name: string,
  limits: IngestLimits,
): PdfTables {
  const result: PdfTables = {
    tables: [],
    blocksBeforePage: new Map(),
    blocksAfterPage: new Map(),
    boxesOnPage: new Map(),
  };
  for (const found of joinAcrossPages(pages)) {
    checkTableShape(name, { cells: found.rows.length * found.columns.length, columns: found.columns.length }, limits);
    const built = buildPdfTable(found, stem, result.tables.length + 1);
    if (!built) continue;
    const { table, blocks } = built;
    result.tables.push(table);
    // Each row goes with its own page, so blocks stay in page order: before the paragraphs when the table opens it.
    for (const block of blocks) {
      const page = block.page ?? found.page;
      const atTop = page === found.page ? found.atTop : found.continued?.find((part) => part.page === page)?.atTop;
      const into = atTop ? result.blocksBeforePage : result.blocksAfterPage;
      const list = into.get(page);
      if (list) list.push(block);
      else into.set(page, [block]);
    }
    for (const { page, box } of [{ page: found.page, box: found.box }, ...(found.continued ?? [])]) {
      result.boxesOnPage.set(page, [...(result.boxesOnPage.get(page) ?? []), box]);
    }
  }
  return result;
}

/** Whether a text line starting at (x, y) is part of one of the tables (its text is then in the table's rows). */
export function insideTable(x: number, y: number, boxes: readonly TableBox[] | undefined): boolean {
  return (boxes ?? []).some((box) => y >= box.y0 && y <= box.y1 && x >= box.x0 - 2 && x <= box.x1);
}

/** `blocks` (in page order) with each page's table blocks before or after that page's own blocks. */
export function withTableBlocks(
  blocks: readonly Block[],
  tables: Pick<PdfTables, 'blocksBeforePage' | 'blocksAfterPage'>,
): Block[] {
  const { blocksBeforePage: before, blocksAfterPage: after } = tables;
  if (before.size === 0 && after.size === 0) return [...blocks];
  const pages = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  const out: Block[] = [];
  let next = 0;
  let opened = 0;
  const add = (list: readonly Block[] | undefined): void => {
    for (const block of list ?? []) out.push(block);
  };
  // Every page < `page` is closed (its after-blocks out) and `page` itself opened (its before-blocks out).
  const reach = (page: number): void => {
    while (next < pages.length && pages[next]! <= page) {
      const current = pages[next]!;
      if (opened < current) add(before.get(current));
      opened = current;
      if (current === page) break;
      add(after.get(current));
      next += 1;
    }
  };
  for (const block of blocks) {
    reach(block.page ?? 0);
    out.push(block);
  }
  reach(Infinity);
  return out;
}
