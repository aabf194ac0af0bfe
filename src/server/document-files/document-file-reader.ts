import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { DocumentRecord } from '../../domain/index.ts';
import { DocumentFileUnavailableError, isEvidentError } from '../../errors/index.ts';
import { readFileOnce } from '../../ingest/read-file-once.ts';

/**
 * The original bytes of a stored document version, read back from the folder it was ingested from. The store keeps
 * no file bytes (an upload's temp folder is removed once ingested) and no server path (a file's `source` is its
 * doc_id, relative to the folder it came from), so the server serves originals only from its configured document
 * roots, and only the exact bytes that were indexed.
 */
export interface DocumentFileReader {
  /** The bytes of `record`'s version, or DocumentFileUnavailableError. The caller has checked the reader's access. */
  read(record: DocumentRecord): Promise<Uint8Array<ArrayBuffer>>;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
};

/**
 * Reads `<root>/<doc_id>` under each root in turn. Fails closed at every step: a document whose source is not its
 * doc_id (an upload, a data set) has no file here; the doc_id is joined, then the real path (symlinks resolved) must
 * still lie inside the root's real path, so `..`, absolute ids and links out of the root read nothing; the file is
 * read once, bounded by `maxBytes` and refused unless regular; and its SHA-256 must equal the stored version's
 * content hash, so a file edited since ingestion never shows text the index no longer holds.
 */
export function folderDocumentFileReader(roots: readonly string[], maxBytes: number): DocumentFileReader {
  const absolute = roots.map((root) => resolve(root));
  return {
    async read(record) {
      if (record.source !== record.docId) throw new DocumentFileUnavailableError(record.docId, 'not_kept');
      let found = false;
      for (const root of absolute) {
        const bytes = await readUnder(root, record.docId, maxBytes);
        if (!bytes) continue;
        found = true;
        if (sha256(bytes) === record.contentHash) return bytes;
      }
      throw new DocumentFileUnavailableError(record.docId, found ? 'changed' : 'not_kept');
    },
  };
}

/** The file at `root/docId` if it is a regular file inside the root; undefined when there is none (or it may not be read). */
async function readUnder(root: string, docId: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const joined = resolve(root, docId);
  if (!inside(root, joined)) return undefined;
  let real: string;
  let realRoot: string;
  try {
    [realRoot, real] = await Promise.all([realpath(root), realpath(joined)]);
  } catch {
    return undefined;
  }
  if (!inside(realRoot, real)) return undefined;
  try {
    // A copy the response owns (the read buffer may be a slice of a larger pool).
    return new Uint8Array(await readFileOnce(real, docId, maxBytes));
  } catch (error) {
    // Unreadable, not regular, too large or being written: nothing to serve from this root.
    if (isEvidentError(error)) return undefined;
    throw error;
  }
}
