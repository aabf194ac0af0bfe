import { snakeCaseKeys } from '../format/snake-case-keys.ts';

// Tables are formatted below the CLI, so the eval reports print them without importing the CLI.
export { formatTable } from '../format/format-table.ts';

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

/** Pretty JSON as it is. Commands print `--json` through `wireJson`, so every key is in the wire naming. */
export const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';

/** A command's `--json` output: keys in snake_case through the one mapping every surface uses (`snakeCaseKeys`). */
export const wireJson = (value: unknown): string => json(snakeCaseKeys(value));
