import type { Block, LoadedDocument, TableData } from '../../domain/index.ts';
import { limitExceeded, type IngestLimits } from '../limits.ts';
import { checkTableShape, gridShape, gridToTable } from './tables.ts';

/**
 * The blocks and tables of one document as a loader builds them, with the per-file bounds kept as it goes: the text
 * against `ingest.maxDocumentChars` and the tables' cells (all of them, across the file) against
 * `ingest.maxTableCells` and `ingest.maxTableColumns`, so a file over a bound stops where it goes over.
 */
export class BoundedDocument {
  readonly blocks: Block[] = [];
  readonly tables: TableData[] = [];
  private chars = 0;
  private cells = 0;

  constructor(
    private readonly name: string,
    private readonly limits: IngestLimits,
  ) {}

  push(block: Block): void {
    this.chars += block.text.length;
    if (this.chars > this.limits.maxDocumentChars) {
      throw limitExceeded(
        'maxDocumentChars',
        this.name,
        `holds more than ${this.limits.maxDocumentChars.toLocaleString('en-US')} characters of text`,
        this.limits,
      );
    }
    this.blocks.push(block);
  }

  /**
   * Counts cells about to be made (`columns` wide) before they are allocated: a reader of repeated rows or columns
   * calls this with the repeat count, so a row repeated a billion times fails here instead of filling memory.
   */
  reserveCells(cells: number, columns: number): void {
    this.cells += cells;
    checkTableShape(this.name, { cells: this.cells, columns }, this.limits);
  }

  /**
   * A grid (first non-empty row = header) as a SQL table titled `title` and its blocks: the columns heading at
   * `level` (below the slide's or section's heading, so it does not start a chapter of its own) and one row block
   * per row, each with `page` when the format has pages or slides. The cells were counted by `reserveCells`.
   */
  table(title: string, grid: readonly (readonly string[])[], level: number, page?: number): void {
    checkTableShape(this.name, { cells: this.cells, columns: gridShape(grid).columns }, this.limits);
    const result = gridToTable(title, grid);
    if (!result) return;
    this.tables.push(result.table);
    for (const block of result.blocks) {
      const placed: Block = block.kind === 'heading' ? { ...block, level } : block;
      this.push(page === undefined ? placed : { ...placed, page });
    }
  }

  /** The loaded document: `title` when the file has one, `pageCount` for slides. */
  result(extra: { title?: string | undefined; pageCount?: number } = {}): LoadedDocument {
    return {
      ...(extra.title ? { title: extra.title } : {}),
      blocks: this.blocks,
      ...(this.tables.length > 0 ? { tables: this.tables } : {}),
      ...(extra.pageCount === undefined ? {} : { pageCount: extra.pageCount }),
    };
  }
}
