import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { DocumentRecord, Principal } from '../../domain/index.ts';
import { DocumentFileUnavailableError, isEvidentError } from '../../errors/index.ts';
import { readFileOnce } from '../../ingest/read-file-once.ts';
import { folderKey, parseFolderSource } from '../../sources/folder-origin.ts';
import type { DocumentStore } from '../../store/ports/document-store.ts';

/**
 * The original bytes of a stored document version: an upload's from the store, which keeps them with the version;
 * any other file's from the folder it was ingested or synced from, which must be one of the server's document
 * roots (the store keeps no server path: a file's `source` is its doc_id, or `folder:<key>/<doc_id>` after a sync).
 * Only the exact bytes that were indexed are served.
 */
export interface DocumentFileReader {
  /** The bytes of `record`'s version, or DocumentFileUnavailableError. The caller has checked `principal`'s access. */
  read(record: DocumentRecord, principal: Principal): Promise<Uint8Array<ArrayBuffer>>;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
};

/**
 * Tries the store, then the roots. The store's read filters by the principal again (its rule for every read of
 * content) and is bounded by `maxBytes` like the roots' files.
 */
export function documentFileReader(
  store: Pick<DocumentStore, 'readDocumentFile'>,
  roots: readonly string[],
  maxBytes: number,
): DocumentFileReader {
  const folders = folderDocumentFileReader(roots, maxBytes);
  return {
    async read(record, principal) {
      const kept = await store.readDocumentFile(record.docId, record.contentHash, principal, maxBytes);
      return kept ?? folders.read(record, principal);
    },
  };
}

/**
 * Reads `<root>/<doc_id>`: under each root for a document whose source is its doc_id (`evident ingest <root>`), and
 * under the root whose key is in a synced document's `folder:<key>/<doc_id>` source (`evident sync <root>`; the key
 * is computed from each root's real path, as the sync does). Fails closed at every step: any other source (an
 * upload, a data set, a web page) has no file here; the doc_id is joined, then the real path (symlinks resolved)
 * must still lie inside the root's real path, so `..`, absolute ids and links out of the root read nothing; the file
 * is read once, bounded by `maxBytes` and refused unless regular; and its SHA-256 must equal the stored version's
 * content hash, so a file edited since ingestion never shows text the index no longer holds.
 */
export function folderDocumentFileReader(roots: readonly string[], maxBytes: number): DocumentFileReader {
  const absolute = roots.map((root) => resolve(root));
  return {
    async read(record) {
      const candidates = await rootsFor(record, absolute);
      let found = false;
      for (const root of candidates) {
        const bytes = await readUnder(root, record.docId, maxBytes);
        if (!bytes) continue;
        found = true;
        if (sha256(bytes) === record.contentHash) return bytes;
      }
      throw new DocumentFileUnavailableError(record.docId, found ? 'changed' : 'not_kept');
    },
  };
}

/** The roots that may hold `record`'s file: all of them for a plain ingest, the one with its key for a sync, else none. */
async function rootsFor(record: DocumentRecord, roots: readonly string[]): Promise<readonly string[]> {
  if (record.source === record.docId) return roots;
  const synced = parseFolderSource(record.source);
  if (!synced || synced.docId !== record.docId) return [];
  const keyed: string[] = [];
  for (const root of roots) {
    const real = await realpath(root).catch(() => undefined);
    if (real !== undefined && folderKey(real) === synced.key) keyed.push(root);
  }
  return keyed;
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
