/** Where CLI commands write: results to `out`, progress and diagnostics to `err`. Tests pass their own. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether `err` is a terminal (progress bars) or a pipe/log (line-based progress). */
  isTty: boolean;
}

export const processIo = (): CliIo => ({
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTty: Boolean(process.stderr.isTTY),
});

/** Renders rows as an aligned plain-text table. */
export function formatTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, col) => Math.max(...cells.map((row) => [...(row[col] ?? '')].length)));
  const line = (row: string[]) =>
    row
      .map((cell, col) => cell + ' '.repeat((widths[col] ?? 0) - [...cell].length))
      .join('  ')
      .trimEnd();
  return [line(cells[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n') + '\n';
}

export const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';
