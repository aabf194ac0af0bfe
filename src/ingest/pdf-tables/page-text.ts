import type { CellBox } from '../../domain/index.ts';

/** A run of text as pdf.js places it on a page (PDF user space: y grows upwards, x and y of its baseline start). */
export interface PageTextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
}

/** Text of one row of a table-like layout that sits together: the words between two wide gaps. */
export interface RowCell {
  text: string;
  x0: number;
  x1: number;
  /** The largest font size in it. */
  size: number;
  /** The items it was made of: a header set tight across several columns is split back along them. */
  parts: { text: string; x0: number; x1: number; spaced?: boolean }[];
}

/** Items sharing a baseline, split into cells at wide gaps. */
export interface TextRow {
  y: number;
  /** The largest font size on the row: gaps and line spacing are measured in it. */
  size: number;
  cells: RowCell[];
}

/** A column's horizontal extent on the page. */
export interface ColumnSpan {
  x0: number;
  x1: number;
}

/** One row of a detected table: one text per column ('' where empty), with its page. */
export interface GridRow {
  page: number;
  cells: string[];
  /** Where each cell's words are printed on the page (undefined for an empty or composed cell). */
  boxes?: (CellBox | undefined)[];
}

/** A table found on a page (or joined across pages) before its header and types are decided. */
export interface FoundTable {
  page: number;
  columns: ColumnSpan[];
  rows: GridRow[];
  /** Which rows cross several columns (a spanning header cell is repeated into each column it covers). */
  spanning: boolean[];
  /** `Table 3: …` found right above or below it. */
  caption?: string;
  /** Where the table sits, so its lines can be left out of the page's paragraphs. */
  box: TableBox;
  /** No text of the page above it but its caption: its blocks go before the page's paragraphs, not after. */
  atTop?: boolean;
  /** Too few rows to stand alone: kept only when it continues the previous page's last table. */
  fragment?: boolean;
  /** Pages it goes on to (joined by `joinAcrossPages`), each with where it sits there. */
  continued?: { page: number; box: TableBox; atTop: boolean }[];
}

export interface TableBox {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}
