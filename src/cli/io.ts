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

/**
 * Escape sequences (CSI, OSC, and the rest: `ESC [ 2 J`, `ESC ] 0 ; title BEL`) and the C0 and C1 control characters
 * but tab and line feed: text the CLI prints comes from documents and models, and must not clear the screen, retitle
 * the terminal, rewrite a line with a carriage return, or hide itself.
 */
const TERMINAL_CONTROL =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;

/** `text` as a terminal may show it: every control sequence and control character but tab and line feed removed. */
export const terminalSafe = (text: string): string => text.replace(TERMINAL_CONTROL, '');

export const processIo = (): CliIo => ({
  out: (text) => process.stdout.write(terminalSafe(text)),
  err: (text) => process.stderr.write(terminalSafe(text)),
  isTty: Boolean(process.stderr.isTTY),
});

/** Pretty JSON as it is. Commands print `--json` through `wireJson`, so every key is in the wire naming. */
export const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';

/** A command's `--json` output: keys in snake_case through the one mapping every surface uses (`snakeCaseKeys`). */
export const wireJson = (value: unknown): string => json(snakeCaseKeys(value));
