import { escapeUnsafe, MAX_ID_CHARS, shownId, UNSAFE_ID_CHAR } from '../domain/identifier.ts';
import { IngestError } from '../errors/index.ts';

/** Refuses a doc_id (a file's path relative to its folder) over the identifier bound or with an unsafe character (domain/identifier.ts), naming it. */
export function checkDocId(docId: string): void {
  if (docId.length > MAX_ID_CHARS)
    throw new IngestError(
      'doc_id_invalid',
      `The file name ${shownId(docId)} has ${docId.length.toLocaleString('en-US')} characters, more than the ${MAX_ID_CHARS} a doc_id may have.`,
      { hint: 'Shorten the file name or its folders, and ingest it again.', details: { length: docId.length } },
    );
  const found = UNSAFE_ID_CHAR.exec(docId);
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
