import { IngestError } from '../errors/index.ts';

/**
 * Characters no doc_id may hold: C0 and C1 controls and DEL (they rewrite terminals and split log lines), the
 * bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069 and the marks U+200E, U+200F,
 * U+061C (they reorder what a reader sees: `invoice‮fdp.exe` shows as `invoiceexe.pdf`), and the line and paragraph
 * separators U+2028, U+2029. A doc_id is shown in citations, lists and logs, so it must read as what it is.
 */
export const UNSAFE_DOC_ID_CHAR =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const UNSAFE_GLOBAL = new RegExp(UNSAFE_DOC_ID_CHAR.source, 'g');

/** The text with each unsafe character written as `<U+202E>`, so a message naming it cannot be reordered by it. */
export const escapeUnsafe = (text: string): string =>
  text.replace(UNSAFE_GLOBAL, (char) => `<U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);

/** Refuses a doc_id (a file's path relative to its folder) that holds an unsafe character, naming it. */
export function checkDocId(docId: string): void {
  const found = UNSAFE_DOC_ID_CHAR.exec(docId);
  if (!found) return;
  const code = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  throw new IngestError(
    'doc_id_invalid',
    `The file name ${escapeUnsafe(docId)} holds the control or bidirectional character ${code}, so it cannot be a doc_id.`,
    {
      hint: 'Rename the file (or the folder) without control, bidirectional-override or isolate characters, and ingest it again.',
      details: { character: code },
    },
  );
}
