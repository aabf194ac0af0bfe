import type { FoundTable } from './page-text.ts';

const sameRow = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  a !== undefined && b !== undefined && a.length === b.length && a.every((cell, index) => cell === b[index]);

/** The columns of two tables sit at the same places (each overlaps its counterpart, left edges within 1/6 inch). */
function columnsLineUp(a: FoundTable, b: FoundTable): boolean {
  return a.columns.every((column, index) => {
    const other = b.columns[index]!;
    return column.x0 < other.x1 && other.x0 < column.x1 && Math.abs(column.x0 - other.x0) <= 12;
  });
}

/**
 * Joins a table that ends one page to the one that starts the next when it goes on: same number of columns, no
 * caption of its own, and a repeated header or columns at the same places. A repeated header is dropped.
 */
export function joinAcrossPages(pages: readonly (readonly FoundTable[])[]): FoundTable[] {
  const joined: FoundTable[] = [];
  let previousPageLast: FoundTable | undefined;
  for (const tables of pages) {
    tables.forEach((table, index) => {
      const open = index === 0 ? previousPageLast : undefined;
      if (open && !table.caption && open.columns.length === table.columns.length && lastPage(open) === table.page - 1) {
        let repeated = 0;
        for (let k = 1; k <= Math.min(3, open.rows.length, table.rows.length - 1); k += 1) {
          if (open.rows.slice(0, k).every((row, r) => sameRow(row.cells, table.rows[r]?.cells))) repeated = k;
        }
        if (repeated > 0 || columnsLineUp(open, table)) {
          // Loops, not push(...rows): a long table would overflow the stack as arguments.
          for (const row of table.rows.slice(repeated)) open.rows.push(row);
          for (const flag of table.spanning.slice(repeated)) open.spanning.push(flag);
          open.continued = [
            ...(open.continued ?? []),
            { page: table.page, box: table.box, atTop: table.atTop === true },
          ];
          return;
        }
      }
      if (!table.fragment) joined.push(table);
    });
    const last = joined.at(-1);
    // Only the last table of the page just read may go on to the next one.
    previousPageLast = last && tables.length > 0 && lastPage(last) === tables[0]!.page ? last : undefined;
  }
  return joined;
}

const lastPage = (table: FoundTable): number => table.continued?.at(-1)?.page ?? table.page;
