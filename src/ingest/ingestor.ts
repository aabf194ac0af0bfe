import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { EvidentConfig } from '../config/index.ts';
import type { LoadedDocument } from '../domain/index.ts';
import { EvidentError, IngestError, isEvidentError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { Embedder } from '../models/embedder.ts';
import { analyzeForIndex } from '../text/analyzer.ts';
import { embedWithCache } from '../retrieval/embed-with-cache.ts';
import { chunkSearchText } from '../retrieval/search-text.ts';
import type { Store } from '../store/store.ts';
import { chunkDocument } from './chunking.ts';
import { buildDocumentExtras } from './extras/build-extras.ts';
import { extractiveSummarizer, type ChapterSummarizer } from './extras/chapter-summarizer.ts';
import { discoverFiles, type DiscoveredFile } from './discover.ts';
import { checkDocId, escapeUnsafe } from './doc-id.ts';
import { summarize, type IngestOutcome, type IngestProgress, type IngestSummary } from './ingest-progress.ts';
import { limitExceeded } from './limits.ts';
import { loaderFor, SUPPORTED_EXTENSIONS } from './loaders/index.ts';
import { readFileOnce } from './read-file-once.ts';
import { resolveAcl } from './resolve-acl.ts';

export interface IngestOptions {
  /**
   * ACL for every file of this run (`--acl`, an upload's `acl` field), overriding sidecars and front matter; `[]` is
   * "public" spelled out (parse user text with `parseAclValue`, which refuses an empty one).
   */
  acl?: string[];
  /** Re-ingest even when the content and ACL are unchanged. */
  force?: boolean;
  /** Makes the chapter summaries (a chat model's when one is configured); extractive without one. */
  summarizer?: ChapterSummarizer;
  onProgress?: (progress: IngestProgress) => void;
}

/** A document given as text rather than as a file (data sets, API uploads of plain text). */
export interface TextRecord {
  docId: string;
  title: string;
  text: string;
  source?: string;
  acl?: string[];
}

export interface IngestorDeps {
  store: Store;
  embedder: Embedder;
  config: Pick<EvidentConfig, 'chunk' | 'ingest'>;
  logger: Logger;
}

/** One document ready to be chunked and written. */
interface Prepared {
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
}

/**
 * Files in, searchable documents out. Each file is loaded, chunked, analysed, embedded and written in one store
 * transaction; a bad file is reported with its reason and the others go on, leaving what is stored untouched.
 */
export class Ingestor {
  constructor(private readonly deps: IngestorDeps) {}

  async ingest(paths: readonly string[], options: IngestOptions = {}): Promise<IngestSummary> {
    const { location } = this.deps.store;
    const { files, missing } = await discoverFiles(paths, ['', '-wal', '-shm', '-journal'].map((suffix) => location + suffix));
    const failures = missing.map(({ path, error }) => ({ item: { path, docId: path }, error }));
    return this.run(files, failures, options, (file) => this.prepareFile(file, options));
  }

  /**
   * Ingests files whose doc_ids are given rather than derived from a folder walk (HTTP uploads held in a temp
   * folder), in the given order; `source` says where they came from when the path is only a temporary copy.
   */
  async ingestFiles(files: readonly DiscoveredFile[], options: IngestOptions = {}): Promise<IngestSummary> {
    return this.run(files, [], options, (file) => this.prepareFile(file, options));
  }

  /** Ingests documents given as text (one chunked document each), with the same change detection as files. */
  async ingestRecords(records: readonly TextRecord[], options: IngestOptions = {}): Promise<IngestSummary> {
    const items = records.map((record) => ({ ...record, path: record.source ?? record.docId }));
    return this.run(items, [], options, async (record) => ({
      docId: record.docId,
      path: record.path,
      source: record.path,
      type: 'text',
      bytes: Buffer.byteLength(record.text),
      contentHash: sha256(`${record.title}\u0000${record.text}`),
      acl: options.acl ?? record.acl ?? [],
      loaded: { title: record.title, blocks: record.text.trim() ? [{ kind: 'text', text: record.text }] : [] },
      fallbackTitle: record.docId,
    }));
  }

  private async run<T extends { path: string; docId: string }>(
    items: readonly T[],
    failures: { item: { path: string; docId: string }; error: unknown }[],
    options: IngestOptions,
    prepare: (item: T) => Promise<Prepared>,
  ): Promise<IngestSummary> {
    const started = performance.now();
    const outcomes: IngestOutcome[] = [];
    const filesTotal = items.length + failures.length;
    let pages = 0;
    let chunks = 0;
    const report = (outcome: IngestOutcome) => {
      outcomes.push(outcome);
      pages += outcome.pages;
      chunks += outcome.chunks;
      options.onProgress?.({ filesDone: outcomes.length, filesTotal, pages, chunks, elapsedMs: performance.now() - started, last: outcome });
    };

    for (const { item, error } of failures) report(failed(item, error));
    for (const item of items) {
      try {
        checkDocId(item.docId);
      } catch (error) {
        // The outcome names the file with its unsafe characters written out, so a terminal shows what it is.
        report(failed({ path: escapeUnsafe(item.path), docId: escapeUnsafe(item.docId) }, error));
        continue;
      }
      try {
        report(await this.write(await prepare(item), options));
      } catch (error) {
        if (!isEvidentError(error) || error.category !== 'user') {
          this.deps.logger.error('ingest failed', { path: item.path, error: String(error) });
        }
        report(failed(item, error));
      }
    }
    return summarize(outcomes, performance.now() - started);
  }

  private async prepareFile(file: DiscoveredFile, options: IngestOptions): Promise<Prepared> {
    const { config } = this.deps;
    const loader = loaderFor(file.path);
    if (!loader) {
      throw new IngestError('file_unsupported', `${file.docId}: unsupported file type "${extname(file.path) || basename(file.path)}".`, {
        hint: `Supported: ${SUPPORTED_EXTENSIONS.join(', ')}.`,
      });
    }
    // Read once: these bytes are the ones parsed, hashed and counted, whatever happens to the file meanwhile.
    const bytes = await readFileOnce(file.path, file.docId, config.ingest.maxFileBytes);
    let loaded: LoadedDocument;
    try {
      loaded = await loader.load(bytes, file.path, config.ingest);
    } catch (error) {
      if (isEvidentError(error)) throw error;
      // A loader bug, not the user's file: logged in full, reported typed.
      this.deps.logger.error('loader failed', { path: file.path, error: String(error) });
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
        override: options.acl,
        fromFile: loaded.acl,
        maxSidecarBytes: config.ingest.maxSidecarBytes,
        sidecarLookalike: file.sidecarLookalike,
      }),
      loaded,
      fallbackTitle: basename(file.path, extname(file.path)),
    };
  }

  private async write(doc: Prepared, options: IngestOptions): Promise<IngestOutcome> {
    const { store, embedder, config } = this.deps;
    const { loaded } = doc;
    const base = { path: doc.path, docId: doc.docId, pages: loaded.pageCount ?? 0, tables: loaded.tables?.length ?? 0 };
    const previous = await store.getDocument(doc.docId);
    // The source counts: a version stored with another origin (an absolute path, before sources were doc_ids) is rewritten.
    const unchanged =
      !options.force && previous && previous.contentHash === doc.contentHash && sameEntries(previous.acl, doc.acl) && previous.source === doc.source;
    if (unchanged && (await store.documentExtrasInfo(doc.docId))) {
      return { ...base, status: 'unchanged', chunks: previous.chunkCount };
    }

    const { ingest } = config;
    let chars = 0;
    for (const block of loaded.blocks) chars += block.text.length;
    if (chars > ingest.maxDocumentChars) {
      throw limitExceeded('maxDocumentChars', doc.docId, `yields ${chars.toLocaleString('en-US')} characters of text`, ingest);
    }
    const { text, chunks, chapters } = chunkDocument(doc.docId, loaded.blocks, config.chunk);
    if (chunks.length > ingest.maxDocumentChunks) {
      throw limitExceeded('maxDocumentChunks', doc.docId, `makes ${chunks.length.toLocaleString('en-US')} chunks`, ingest);
    }
    if (chunks.length === 0) {
      throw new IngestError('file_empty', `${doc.docId} has no extractable text.`, {
        hint: 'A scanned PDF needs OCR first; an image-only or empty document has nothing to search.',
      });
    }
    const title = loaded.title?.trim() || doc.fallbackTitle;
    const extras = await buildDocumentExtras({ docId: doc.docId, title, text, chapters, chunks }, options.summarizer ?? extractiveSummarizer, this.deps.logger);
    if (unchanged) {
      // Stored before summaries and quotes existed: the same version gets them, its chunks and vectors stay.
      await store.putDocumentExtras(doc.docId, doc.contentHash, extras);
      return { ...base, status: 'unchanged', chunks: previous.chunkCount };
    }
    const searchTexts = chunks.map((chunk) => chunkSearchText({ ...chunk, title }));
    const vectors = await embedWithCache({ embedder, store }, searchTexts);
    await store.putDocument({
      document: {
        docId: doc.docId,
        source: doc.source,
        title,
        type: doc.type,
        contentHash: doc.contentHash,
        bytes: doc.bytes,
        acl: doc.acl,
        tags: loaded.tags ?? [],
        ...(loaded.pageCount === undefined ? {} : { pageCount: loaded.pageCount }),
      },
      chunks,
      keywordText: searchTexts.map(analyzeForIndex),
      vectors,
      embedder: { id: embedder.id, dimension: embedder.dimension },
      chapters,
      tables: loaded.tables ?? [],
      extras,
    });
    return { ...base, status: previous ? 'updated' : 'added', chunks: chunks.length };
  }
}

function failed(item: { path: string; docId: string }, error: unknown): IngestOutcome {
  const known = EvidentError.isInstance(error);
  return {
    path: item.path,
    docId: item.docId,
    status: 'failed',
    chunks: 0,
    pages: 0,
    tables: 0,
    error: {
      code: known ? error.code : 'file_unreadable',
      message: known ? error.toLine() : `${item.docId}: ${(error as Error)?.message ?? String(error)}`,
      ...(known && error.hint ? { hint: error.hint } : {}),
    },
  };
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

const sameEntries = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

export { formatBytes } from './limits.ts';
