import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { LoadedDocument } from '../domain/index.ts';
import { IngestError, isEvidentError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { DiscoveredFile } from './discover.ts';
import type { IngestLimits } from './limits.ts';
import { loaderFor, SUPPORTED_EXTENSIONS, type Loader } from './loaders/index.ts';
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

/** A file found inside an ingested one (an e-mail's attachment), read as a document of its own. */
export interface AttachmentItem {
  /** Its name inside its carrier; its loader is chosen by it. */
  name: string;
  bytes: Uint8Array;
  /** The doc_id of the file ingested (the outermost carrier): it is replaced and deleted with that document. */
  root: string;
  /** Its carrier's source and ACL: an attachment is never visible to more principals than its message. */
  source: string;
  acl: string[];
  /** 1 for an attachment of the file ingested, 2 for one of a message attached to it, … */
  depth: number;
  /** Keep its bytes with its version, as its carrier's are kept (an upload): a cited page of an attached PDF can be shown. */
  keepOriginal: boolean;
}

/** What one ingested item is: a file to read and parse, a text record, or a file found inside another; `path` names it in the ingest summary. */
export type SourceItem =
  | { kind: 'file'; file: DiscoveredFile; path: string; docId: string }
  | { kind: 'record'; record: TextRecord; path: string; docId: string }
  | { kind: 'attachment'; attachment: AttachmentItem; path: string; docId: string };

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
  /** The doc_id of the document it was found inside, for an attachment. */
  parent?: string;
  /** The bytes read, when the document captions figures: their pages are rendered from them. */
  figureSource?: Buffer;
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
  if (item.kind === 'attachment') return prepareAttachment(item, limits, logger);
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
  const loaded = await loadWith(loader, bytes, file.path, file.docId, limits, logger);
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
    ...(loaded.figures?.length ? { figureSource: bytes } : {}),
  };
}

/** An attachment: parsed by the loader its name implies, with its carrier's ACL and a source beneath the carrier's. */
async function prepareAttachment(
  item: Extract<SourceItem, { kind: 'attachment' }>,
  limits: IngestLimits,
  logger: Logger,
): Promise<Prepared> {
  const { attachment } = item;
  const loader = loaderFor(attachment.name);
  if (!loader)
    throw new IngestError('file_unsupported', `${item.docId}: unsupported file type "${extname(attachment.name)}".`);
  const bytes = Buffer.from(attachment.bytes.buffer, attachment.bytes.byteOffset, attachment.bytes.byteLength);
  const loaded = await loadWith(loader, bytes, item.path, item.docId, limits, logger);
  return {
    docId: item.docId,
    path: item.path,
    source: `${attachment.source}/${attachment.name}`,
    type: loader.type,
    bytes: bytes.length,
    contentHash: sha256(bytes),
    acl: attachment.acl,
    loaded,
    fallbackTitle: basename(attachment.name, extname(attachment.name)),
    parent: attachment.root,
    ...(attachment.keepOriginal ? { original: new Uint8Array(bytes) } : {}),
    ...(loaded.figures?.length ? { figureSource: bytes } : {}),
  };
}

/** Runs `loader`; an error that is not typed is a loader bug, not the user's file: logged in full, reported typed. */
async function loadWith(
  loader: Loader,
  bytes: Buffer,
  path: string,
  docId: string,
  limits: IngestLimits,
  logger: Logger,
): Promise<LoadedDocument> {
  try {
    return await loader.load(bytes, path, limits);
  } catch (error) {
    if (isEvidentError(error)) throw error;
    logger.error('loader failed', { path, error: String(error) });
    throw new IngestError('file_corrupt', `${docId} could not be read as a ${loader.type} file.`, {
      cause: error,
      hint: 'Save it again in the program that made it; if it still fails, report it with the server log.',
    });
  }
}
