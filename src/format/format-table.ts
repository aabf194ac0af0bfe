/** Renders rows as an aligned plain-text table (the CLI's lists, the eval reports). Widths count code points. */
export function formatTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, col) => Math.max(...cells.map((row) => [...(row[col] ?? '')].length)));
  const line = (row: string[]) =>
    row
      .map((cell, col) => cell + ' '.repeat((widths[col] ?? 0) - [...cell].length))
      .join('  ')
      .trimEnd();
  return (
    [line(cells[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n') + '\n'
  );
}
