import { EvidentError, IngestError, isEvidentError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { Embedder } from '../models/embedder.ts';
import { embedWithCache } from '../retrieval/embed-with-cache.ts';
import { chunkSearchText } from '../retrieval/search-text.ts';
import type { DocumentExtras } from '../store/document-extras.ts';
import type { DocumentWrite } from '../store/ports/document-store.ts';
import { packedAnalysedForms } from '../text/analysed-form-terms.ts';
import { analyzeForIndex } from '../text/analyzer.ts';
import { chunkDocument, type ChunkOptions } from './chunking.ts';
import { buildDocumentExtras, type ChunkedVersion } from './extras/build-extras.ts';
import { extractiveSummarizer } from './extras/chapter-summarizer.ts';
import { limitExceeded, type IngestLimits } from './limits.ts';
import { attachmentVersions, withAttachmentMetadata } from './attachment-documents.ts';
import { AttachmentBudget } from './loaders/mail/attachments.ts';
import { prepareItem, type Prepared, type SourceItem } from './prepare-document.ts';
import { describeFigures } from './figures/describe-figures.ts';
import type { FigureCounts, FigureDescriber } from './figures/figure-describer.ts';

/** The stored version of a document, as change detection needs it (looked up by the thread that writes). */
export interface StoredVersion {
  contentHash: string;
  acl: string[];
  source: string;
  chunkCount: number;
  hasExtras: boolean;
  /** The store keeps the version's original file (asked only for a file to be kept, an upload). */
  hasOriginal: boolean;
}

/** One document to read, parse, chunk, analyse and (when `embed`) embed: runs on a worker thread or in the caller's. */
export interface DocumentTask {
  item: SourceItem;
  previous: StoredVersion | undefined;
  /** The run's ACL override (`--acl`, an upload's). */
  acl: string[] | undefined;
  force: boolean;
  /** Build the extractive extras here; false when the caller's summarizer (a chat model) makes them. */
  extras: boolean;
  /** Embed here; false when the embedder runs on the caller's thread (a remote or cached model). */
  embed: boolean;
  /** Make each chunk's analysed form here (the store `keepsAnalysedForms`), so the writing thread need not. */
  analysedForms?: boolean;
}

/** What the summary says of a document besides its status and chunks. */
export interface OutcomeBase {
  path: string;
  docId: string;
  pages: number;
  tables: number;
  /** Its captioned figures: how many got a description from the vision model, how many did not. */
  figures?: FigureCounts;
}

/** A failure as it crosses a thread: what `IngestOutcome.error` shows, and whether it is logged as unexpected. */
export interface FailureInfo {
  code: string;
  message: string;
  hint?: string;
  /** Not the user's file (a bug, a store failure): the writer logs it in full. */
  unexpected: boolean;
  detail: string;
}

/** A document's version: everything of its write but the vectors and extras, which may be made elsewhere. */
export type VersionWrite = Omit<DocumentWrite, 'vectors' | 'extras' | 'embedder'>;

export type DocumentResult =
  | { status: 'unchanged'; base: OutcomeBase; chunks: number }
  /** Stored before extras existed: the same version gets them (`extras`, or `version` to build them from). */
  | {
      status: 'extras';
      base: OutcomeBase;
      chunks: number;
      contentHash: string;
      extras?: DocumentExtras;
      version?: ChunkedVersion;
    }
  | (VersionResult & {
      base: OutcomeBase;
      replaces: boolean;
      /** The documents found inside this one (an e-mail's attachments, nested ones flattened), written after it in its transaction. */
      attachments?: VersionResult[];
    })
  | { status: 'failed'; failure: FailureInfo };

/** A version to write, with what the writing thread still has to make of it. */
export interface VersionResult {
  status: 'write';
  write: VersionWrite;
  /** Parallel to the chunks: what each chunk is embedded from, when the caller embeds (no `vectors`). */
  searchTexts?: string[];
  vectors?: Float32Array[];
  extras?: DocumentExtras;
  version?: ChunkedVersion;
}

export interface ProcessDeps {
  chunk: ChunkOptions;
  limits: IngestLimits;
  /** Present when the task may embed. */
  embedder?: Embedder;
  /** Describes captioned figures (a vision model); absent offline and on worker threads, where they are only counted. */
  figures?: FigureDescriber;
  logger: Logger;
}

/** The outcome error of `error` (typed ones keep their code and hint). */
export function describeFailure(docId: string, error: unknown): FailureInfo {
  const known = EvidentError.isInstance(error);
  return {
    code: known ? error.code : 'file_unreadable',
    message: known ? error.toLine() : `${docId}: ${(error as Error)?.message ?? String(error)}`,
    ...(known && error.hint ? { hint: error.hint } : {}),
    unexpected: !isEvidentError(error) || error.category !== 'user',
    detail: String(error),
  };
}

/**
 * Reads one document and makes its version: the same steps, in the same order, whichever thread runs them, so what
 * is stored does not depend on it. An unchanged document (content, ACL and source) stops after hashing.
 */
export async function processDocument(task: DocumentTask, deps: ProcessDeps): Promise<DocumentResult> {
  try {
    return await process(task, deps);
  } catch (error) {
    return { status: 'failed', failure: describeFailure(task.item.docId, error) };
  }
}

async function process(task: DocumentTask, deps: ProcessDeps): Promise<DocumentResult> {
  const doc = await prepareItem(task.item, task.acl, deps.limits, deps.logger);
  const budget = new AttachmentBudget(doc.docId, deps.limits);
  return versionOf(doc, task, deps, budget);
}

/** The version of a prepared document and of the documents found inside it, which share `budget`. */
async function versionOf(
  doc: Prepared,
  task: DocumentTask,
  deps: ProcessDeps,
  budget: AttachmentBudget,
): Promise<DocumentResult> {
  const { limits, logger } = deps;
  const { loaded, docId } = doc;
  const base = { path: doc.path, docId, pages: loaded.pageCount ?? 0, tables: loaded.tables?.length ?? 0 };
  const { previous } = task;
  // The source counts: a version stored with another origin (an absolute path, before sources were doc_ids) is rewritten.
  const unchanged =
    !task.force &&
    previous &&
    previous.contentHash === doc.contentHash &&
    sameEntries(previous.acl, doc.acl) &&
    previous.source === doc.source &&
    (doc.original === undefined || previous.hasOriginal);
  if (unchanged && previous.hasExtras) return { status: 'unchanged', base, chunks: previous.chunkCount };

  // An unchanged version only gets its extras: its stored chunks stay, so its figures are not read again.
  const blocks = unchanged ? loaded.blocks : await withFigures(doc, deps, base);
  let chars = 0;
  for (const block of blocks) chars += block.text.length;
  if (chars > limits.maxDocumentChars) {
    throw limitExceeded(
      'maxDocumentChars',
      docId,
      `yields ${chars.toLocaleString('en-US')} characters of text`,
      limits,
    );
  }
  const { text, chunks, chapters } = chunkDocument(docId, blocks, deps.chunk);
  if (chunks.length > limits.maxDocumentChunks) {
    throw limitExceeded('maxDocumentChunks', docId, `makes ${chunks.length.toLocaleString('en-US')} chunks`, limits);
  }
  if (chunks.length === 0) {
    throw new IngestError('file_empty', `${docId} has no extractable text.`, {
      hint: 'An empty document has nothing to search; a scanned PDF is read through OCR unless ingest.ocr.enabled is false.',
    });
  }
  const title = loaded.title?.trim() || doc.fallbackTitle;
  const version: ChunkedVersion = { docId, title, text, chapters, chunks };
  const extras = task.extras ? await buildDocumentExtras(version, extractiveSummarizer, logger) : undefined;
  const made = extras ? { extras } : { version };
  if (unchanged) return { status: 'extras', base, chunks: previous.chunkCount, contentHash: doc.contentHash, ...made };

  const attachments = await attachmentsOf(doc, task, deps, budget);
  const metadata = withAttachmentMetadata(
    loaded,
    attachments.written.map((written) => written.write.document.docId),
    attachments.skipped,
  );

  const searchTexts = chunks.map((chunk) => chunkSearchText({ ...chunk, title }));
  const keywordText = searchTexts.map(analyzeForIndex);
  const analysed = task.analysedForms
    ? packedAnalysedForms(
        chunks.map((chunk) => chunk.text),
        keywordText,
      )
    : undefined;
  const vectors =
    task.embed && deps.embedder
      ? await embedWithCache({ store: undefined, embedder: deps.embedder }, searchTexts, keywordText)
      : undefined;
  const write: VersionWrite = {
    document: {
      docId,
      source: doc.source,
      title,
      type: doc.type,
      contentHash: doc.contentHash,
      bytes: doc.bytes,
      acl: doc.acl,
      tags: loaded.tags ?? [],
      ...(loaded.pageCount === undefined ? {} : { pageCount: loaded.pageCount }),
      ...(metadata ? { metadata } : {}),
      ...(doc.parent === undefined ? {} : { parent: doc.parent }),
    },
    chunks,
    keywordText,
    ...(analysed ? { analysed } : {}),
    chapters,
    tables: loaded.tables ?? [],
    ...(doc.original ? { original: doc.original } : {}),
  };
  // The full text travels back only when the caller still builds the extras from it.
  // What crosses back to the writing thread is only what it still needs: the search texts only if it embeds.
  return {
    status: 'write',
    base,
    replaces: previous !== undefined,
    write,
    ...(vectors ? { vectors } : { searchTexts }),
    ...made,
    ...(attachments.written.length > 0 ? { attachments: attachments.written } : {}),
  };
}

/** The document's blocks with its figures' descriptions (when a vision model reads them); `base` gets their counts. */
async function withFigures(doc: Prepared, deps: ProcessDeps, base: OutcomeBase) {
  const figures = doc.loaded.figures ?? [];
  if (figures.length === 0 || !doc.figureSource) return doc.loaded.blocks;
  const { blocks, counts } = await describeFigures({
    docId: doc.docId,
    docTitle: doc.loaded.title?.trim() || doc.fallbackTitle,
    pdf: doc.figureSource,
    figures,
    blocks: doc.loaded.blocks,
    describer: deps.figures,
    config: deps.limits.figures,
    logger: deps.logger,
  });
  base.figures = counts;
  return blocks;
}

/** The versions of the documents found inside `doc` (nested ones flattened), made as `doc`'s is, and those skipped. */
async function attachmentsOf(doc: Prepared, task: DocumentTask, deps: ProcessDeps, budget: AttachmentBudget) {
  const { limits, logger } = deps;
  const depth = task.item.kind === 'attachment' ? task.item.attachment.depth : 0;
  const attachments = await attachmentVersions(doc, depth, budget, async (item, shared) => {
    const inner = await prepareItem(item, undefined, limits, logger);
    const result = await versionOf(inner, { ...task, item, previous: undefined, force: true }, deps, shared);
    if (result.status !== 'write') throw new Error(`${item.docId}: an attachment made no new version`);
    const { attachments: nested = [], base: _base, replaces: _replaces, ...write } = result;
    return { write, nested };
  });
  if (attachments.skipped.length > 0)
    logger.info('ingest: attachments skipped', { docId: doc.docId, skipped: attachments.skipped });
  return attachments;
}

const sameEntries = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
