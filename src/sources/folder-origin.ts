import { sha256 } from '../ingest/prepare-document.ts';

/**
 * How a synced folder's documents record their origin in `source`: `folder:<key>/<doc_id>`, the key being the first
 * 12 hex digits of the SHA-256 of the folder's real path. Readers see no server path; a sync recognises its own
 * documents by the prefix; a reader of the original file (the document file route) finds it at `<root>/<doc_id>`
 * for the root whose key it is.
 */
export const folderKey = (realRoot: string): string => sha256(realRoot).slice(0, 12);

export const folderSourcePrefix = (key: string): string => `folder:${key}/`;

const FOLDER_SOURCE = /^folder:([0-9a-f]{12})\/(.+)$/s;

/** The key and doc_id of a synced folder's `source`, or undefined for any other source. */
export function parseFolderSource(source: string): { key: string; docId: string } | undefined {
  const match = FOLDER_SOURCE.exec(source);
  return match ? { key: match[1] as string, docId: match[2] as string } : undefined;
}
