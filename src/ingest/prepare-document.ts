import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { LoadedDocument } from '../domain/index.ts';
import { IngestError, isEvidentError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { DiscoveredFile } from './discover.ts';
import type { IngestLimits } from './limits.ts';
import { loaderFor, SUPPORTED_EXTENSIONS } from './loaders/index.ts';
import { readFileOnce } from './read-file-once.ts';
import { resolveAcl } from './resolve-acl.ts';

/** A document given as text rather than as a file (data sets, API uploads of plain text). */
export interface TextRecord {
  docId: string;
  title: string;
  text: string;
  source?: string;
  acl?: string[];
}

/** What one ingested item is: a file to read and parse, or a text record; `path` names it in the ingest summary. */
export type SourceItem =
  | { kind: 'file'; file: DiscoveredFile; path: string; docId: string }
  | { kind: 'record'; record: TextRecord; path: string; docId: string };

/** One document read, parsed and hashed, ready to be compared with the stored version and chunked. */
export interface Prepared {
  docId: string;
  /** Where it was read from, for the ingest summary of whoever ran it (never stored). */
  path: string;
  /** What readers see as its origin: the doc_id for a file of a folder, `upload:<doc_id>`, a data set's id. */
  source: string;
  type: string;
  bytes: number;
  contentHash: string;
  acl: string[];
  loaded: LoadedDocument;
  fallbackTitle: string;
  /** The bytes read, when the file is to be kept with its version (`DiscoveredFile.keepOriginal`). */
  original?: Uint8Array;
}

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** Reads and parses `item` (a file once, through its loader; a record as it is) and resolves its ACL. */
export async function prepareItem(
  item: SourceItem,
  acl: string[] | undefined,
  limits: IngestLimits,
  logger: Logger,
): Promise<Prepared> {
  if (item.kind === 'record') {
    const { record } = item;
    return {
      docId: record.docId,
      path: item.path,
      source: item.path,
      type: 'text',
      bytes: Buffer.byteLength(record.text),
      contentHash: sha256(`${record.title}\u0000${record.text}`),
      acl: acl ?? record.acl ?? [],
      loaded: { title: record.title, blocks: record.text.trim() ? [{ kind: 'text', text: record.text }] : [] },
      fallbackTitle: record.docId,
    };
  }
  const { file } = item;
  const loader = loaderFor(file.path);
  if (!loader) {
    throw new IngestError(
      'file_unsupported',
      `${file.docId}: unsupported file type "${extname(file.path) || basename(file.path)}".`,
      {
        hint: `Supported: ${SUPPORTED_EXTENSIONS.join(', ')}.`,
      },
    );
  }
  // Read once: these bytes are the ones parsed, hashed and counted, whatever happens to the file meanwhile.
  const bytes = await readFileOnce(file.path, file.docId, limits.maxFileBytes);
  let loaded: LoadedDocument;
  try {
    loaded = await loader.load(bytes, file.path, limits);
  } catch (error) {
    if (isEvidentError(error)) throw error;
    // A loader bug, not the user's file: logged in full, reported typed.
    logger.error('loader failed', { path: file.path, error: String(error) });
    throw new IngestError('file_corrupt', `${file.docId} could not be read as a ${loader.type} file.`, {
      cause: error,
      hint: 'Save it again in the program that made it; if it still fails, report it with the server log.',
    });
  }
  return {
    docId: file.docId,
    path: file.path,
    // Readers see the doc_id (or the upload's label), never where this process keeps its files.
    source: file.source ?? file.docId,
    type: loader.type,
    bytes: bytes.length,
    contentHash: sha256(bytes),
    acl: await resolveAcl(file.path, file.docId, {
      override: acl,
      fromFile: loaded.acl,
      maxSidecarBytes: limits.maxSidecarBytes,
      sidecarLookalike: file.sidecarLookalike,
    }),
    loaded,
    fallbackTitle: basename(file.path, extname(file.path)),
    // An exact-size copy: the read buffer may be a slice of a larger one, which a worker's answer would clone whole.
    ...(file.keepOriginal ? { original: new Uint8Array(bytes) } : {}),
  };
}
