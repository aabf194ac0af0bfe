import { ValidationError } from '../errors/index.ts';

/**
 * One rule for every identifier a caller chooses — doc ids, thread ids, run ids — applied where it is stored, so
 * every entry point (HTTP, MCP, the CLI, ingestion, the LangGraph and OpenAI routes) refuses the same ids the same
 * way: 1 to 512 characters (what the audit log records of an id, so no stored id can make an audit write fail), none
 * of them a control character (NUL included), a bidirectional embedding, override, isolate or mark, or a line or
 * paragraph separator: ids are shown in citations, lists, logs and terminals, and must read as what they are
 * (`invoice‮fdp.exe` shows as `invoiceexe.pdf`).
 */
export const MAX_ID_CHARS = 512;

export const UNSAFE_ID_CHAR = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const UNSAFE_GLOBAL = new RegExp(UNSAFE_ID_CHAR.source, 'g');

/** The text with each unsafe character written as `<U+202E>`, so a message naming it cannot be reordered by it. */
export const escapeUnsafe = (text: string): string =>
  text.replace(UNSAFE_GLOBAL, (char) => `<U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);

/** How an id is quoted back: bounded and with its unsafe characters written out, whatever was sent. */
export const shownId = (id: string): string =>
  JSON.stringify(escapeUnsafe(id.length > 64 ? `${id.slice(0, 64)}…` : id));

/** Why `id` cannot be an identifier, or undefined when it can. */
export function identifierProblem(id: unknown): string | undefined {
  if (typeof id !== 'string' || id.length === 0) return 'it is empty';
  if (id.length > MAX_ID_CHARS)
    return `it has ${id.length.toLocaleString('en-US')} characters, more than ${MAX_ID_CHARS}`;
  const unsafe = UNSAFE_ID_CHAR.exec(id);
  if (unsafe)
    return `it holds the control or bidirectional character U+${unsafe[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return undefined;
}

/** Refuses an identifier that breaks the rule, naming what it identifies (`thread id`, `doc_id`) and why. */
export function checkIdentifier(kind: string, id: unknown): void {
  const problem = identifierProblem(id);
  if (!problem) return;
  throw new ValidationError(
    `The ${kind} ${typeof id === 'string' ? shownId(id) : String(id)} cannot be used: ${problem}.`,
    {
      hint: `Use 1 to ${MAX_ID_CHARS} characters without control or bidirectional characters.`,
    },
  );
}
