import type { CodeSource } from './code-loader.ts';
import type { DotKernel } from './dot-kernel.ts';

/** Rows read from the snapshot file at a time while a restore's codes are still being copied. */
const WINDOW_ROWS = 2048;

/** Where a scan through the window reads and writes, as byte offsets into the kernel's memory. */
export interface WindowScan {
  kernel: DotKernel;
  source: CodeSource;
  /** Rows of the index, and how many of them from row 0 have their codes in memory. */
  rows: number;
  loaded: number;
  /** Bytes per row of codes. */
  stride: number;
  query: number;
  codes: number;
  scales: number;
  scores: number;
  /** The visible rows' list (when the scan has one). */
  rowList: number;
  /** Free memory past the scratch areas, where the window goes. */
  window: number;
}

/**
 * The int8 scan while a restore's codes are still being copied: rows below `loaded` in place, the others read from
 * the snapshot file into a window (memory touched once, then reused), WINDOW_ROWS at a time. Scores land where the
 * in-place scan puts them. Returns where the rescoring block may start (past the window).
 */
export function scanThroughWindow(scan: WindowScan, rows: Int32Array | undefined): number {
  const { kernel, source, loaded, stride, query, scales, scores, window } = scan;
  const indexOffset = window + WINDOW_ROWS * stride;
  kernel.reserve(indexOffset + WINDOW_ROWS * 4);
  if (!rows) {
    if (loaded > 0) kernel.dotsI8(query, scan.codes, loaded, stride, scales, scores);
    for (let first = loaded; first < scan.rows; first += WINDOW_ROWS) {
      const count = Math.min(WINDOW_ROWS, scan.rows - first);
      source.readRows(first, count, new Uint8Array(kernel.buffer(), window, count * stride));
      kernel.dotsI8(query, window, count, stride, scales + first * 4, scores + first * 4);
    }
    return indexOffset + WINDOW_ROWS * 4;
  }
  let i = 0;
  while (i < rows.length && (rows[i] as number) < loaded) i++;
  if (i > 0) kernel.dotsI8At(query, scan.codes, scan.rowList, i, stride, scales, scores);
  const local = new Int32Array(kernel.buffer(), indexOffset, WINDOW_ROWS);
  while (i < rows.length) {
    const first = rows[i] as number;
    const count = Math.min(WINDOW_ROWS, scan.rows - first);
    let j = i;
    for (; j < rows.length && (rows[j] as number) < first + count; j++) local[j - i] = (rows[j] as number) - first;
    source.readRows(first, count, new Uint8Array(kernel.buffer(), window, count * stride));
    kernel.dotsI8At(query, window, indexOffset, j - i, stride, scales + first * 4, scores + i * 4);
    i = j;
  }
  return indexOffset + WINDOW_ROWS * 4;
}
