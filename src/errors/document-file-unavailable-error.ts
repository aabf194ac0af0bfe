import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.DocumentFileUnavailableError';
const symbol = Symbol.for(marker);

/** Why a readable document's original file cannot be served. */
export type DocumentFileGap = 'not_kept' | 'changed';

const HINTS: Record<DocumentFileGap, string> = {
  not_kept:
    'The server keeps uploaded files, and serves other originals only from its document roots (documentRoots, EVIDENT_DOCUMENT_ROOTS): upload the file, or ingest or sync it from one of them.',
  changed:
    'Ingest it again (evident ingest) so the index matches the file; the indexed text is still searchable meanwhile.',
};

/**
 * A document the reader may read, whose original file the server cannot serve: it keeps no copy of it (a file
 * outside the server's document roots, an upload stored before uploads kept their bytes, a data set's record), or the file on disk no longer matches the indexed version.
 * Raised only after the reader's access was checked, so it tells nothing to anyone else.
 */
export class DocumentFileUnavailableError extends EvidentError {
  private readonly [symbol] = true;
  readonly gap: DocumentFileGap;

  constructor(docId: string, gap: DocumentFileGap) {
    const what =
      gap === 'changed'
        ? `The file of ${JSON.stringify(docId)} changed since it was ingested, so it no longer shows what was cited.`
        : `The original file of ${JSON.stringify(docId)} is not kept by this server.`;
    super('document_file_unavailable', what, { category: 'user', hint: HINTS[gap] });
    this.gap = gap;
  }

  static override isInstance(error: unknown): error is DocumentFileUnavailableError {
    return EvidentError.hasMarker(error, marker);
  }
}
