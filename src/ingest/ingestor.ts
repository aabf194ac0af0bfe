import { availableParallelism } from 'node:os';
import type { EvidentConfig } from '../config/index.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { Embedder } from '../models/embedder.ts';
import type { DocumentStore } from '../store/ports/document-store.ts';
import type { Store } from '../store/store.ts';
import { BatchWriter } from './batch-writer.ts';
import { discoverFiles, type DiscoveredFile } from './discover.ts';
import { escapeUnsafe } from '../domain/identifier.ts';
import { checkDocId } from './doc-id.ts';
import { extractiveSummarizer, type ChapterSummarizer } from './extras/chapter-summarizer.ts';
import { summarize, type IngestOutcome, type IngestProgress, type IngestSummary } from './ingest-progress.ts';
import type { IngestWorkerData, WorkerAnswer } from './ingest-worker.ts';
import type { SourceItem, TextRecord } from './prepare-document.ts';
import {
  describeFailure,
  processDocument,
  type DocumentResult,
  type DocumentTask,
  type StoredVersion,
} from './process-document.ts';
import { WorkerPool, WorkerStartError } from './worker-pool.ts';
import type { FigureDescriber } from './figures/figure-describer.ts';

export type { TextRecord } from './prepare-document.ts';

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

export interface IngestorDeps {
  /** Its documents, and its location (the store's own files are never ingested). */
  store: DocumentStore & Pick<Store, 'location'>;
  embedder: Embedder;
  config: Pick<EvidentConfig, 'chunk' | 'ingest'>;
  logger: Logger;
  /** Describes PDF figures (the configured vision model); absent offline, where figures are only counted. */
  figures?: FigureDescriber;
}

/** Where the worker threads start (beside this module; absent inside a single-file bundle, which then stays on one thread). */
const WORKER_ENTRY = new URL('./ingest-worker.mjs', import.meta.url);
/** Idle workers end after this long, so a server that ingested once holds no threads. */
const WORKER_IDLE_MS = 2_000;

interface Pending {
  item: { path: string; docId: string };
  result: Promise<DocumentResult>;
}

/**
 * Files in, searchable documents out. Each file is read, parsed, chunked, analysed and embedded — on worker threads
 * when there are many (`ingest.workers`) — and written by this thread, several documents per store transaction
 * (`ingest.batch*`): a document is stored whole or not at all, and a bad file is reported with its reason while the
 * others go on, leaving what is stored untouched. Outcomes come in the order of the files.
 */
export class Ingestor {
  private pool: WorkerPool<DocumentTask, WorkerAnswer> | undefined;
  private announcedWorkers = false;
  private warnedNoWorkers = false;

  constructor(private readonly deps: IngestorDeps) {}

  async ingest(paths: readonly string[], options: IngestOptions = {}): Promise<IngestSummary> {
    const { location } = this.deps.store;
    const { files, missing } = await discoverFiles(
      paths,
      ['', '-wal', '-shm', '-journal'].map((suffix) => location + suffix),
    );
    const failures = missing.map(({ path, error }) => ({ item: { path, docId: path }, error }));
    return this.run(files.map(fileItem), failures, options);
  }

  /**
   * Ingests files whose doc_ids are given rather than derived from a folder walk (HTTP uploads held in a temp
   * folder), in the given order; `source` says where they came from when the path is only a temporary copy.
   */
  async ingestFiles(files: readonly DiscoveredFile[], options: IngestOptions = {}): Promise<IngestSummary> {
    return this.run(files.map(fileItem), [], options);
  }

  /** Ingests documents given as text (one chunked document each), with the same change detection as files. */
  async ingestRecords(records: readonly TextRecord[], options: IngestOptions = {}): Promise<IngestSummary> {
    return this.run(
      records.map(
        (record): SourceItem => ({ kind: 'record', record, path: record.source ?? record.docId, docId: record.docId }),
      ),
      [],
      options,
    );
  }

  /** Ends the worker threads now (they also end by themselves when idle). */
  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }

  private async run(
    items: readonly SourceItem[],
    failures: { item: { path: string; docId: string }; error: unknown }[],
    options: IngestOptions,
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
      options.onProgress?.({
        filesDone: outcomes.length,
        filesTotal,
        pages,
        chunks,
        elapsedMs: performance.now() - started,
        last: outcome,
      });
    };
    const { store, embedder, logger, config } = this.deps;
    const { ingest } = config;
    const summarizer = options.summarizer ?? extractiveSummarizer;
    const writer = new BatchWriter({
      store,
      embedder,
      logger,
      summarizer,
      bounds: { documents: ingest.batchDocuments, bytes: ingest.batchBytes, ms: ingest.batchMs },
      report,
    });
    for (const { item, error } of failures)
      await writer.add(item, { status: 'failed', failure: describeFailure(item.docId, error) });

    const pool = this.poolFor(items.length);
    const release = pool?.hold();
    try {
      return await this.pipeline(items, pool, writer, options, started, outcomes);
    } finally {
      release?.();
    }
  }

  private async pipeline(
    items: readonly SourceItem[],
    pool: WorkerPool<DocumentTask, WorkerAnswer> | undefined,
    writer: BatchWriter,
    options: IngestOptions,
    started: number,
    outcomes: IngestOutcome[],
  ): Promise<IngestSummary> {
    const { embedder, config } = this.deps;
    const { ingest } = config;
    const summarizer = options.summarizer ?? extractiveSummarizer;
    const run = (task: DocumentTask) => (pool ? this.inPool(pool, task) : this.inThread(task));
    // Work in flight ahead of the writer: a batch's worth and more, so workers stay busy while this thread writes
    // one (a synchronous SQLite batch of 64 documents holds this thread for ~70 ms).
    const ahead = pool ? ingest.batchDocuments + 4 * pool.size : 1;
    const embedHere = embedder.workerSpec !== undefined && !embedder.cacheInStore;
    const pending: Pending[] = [];
    const next = async () => {
      const { item, result } = pending.shift() as Pending;
      await writer.add(item, await this.awaitWriting(writer, result));
    };

    for (const item of items) {
      try {
        checkDocId(item.docId);
      } catch (error) {
        // The outcome names the file with its unsafe characters written out, so a terminal shows what it is.
        const escaped = { path: escapeUnsafe(item.path), docId: escapeUnsafe(item.docId) };
        pending.push({
          item: escaped,
          result: Promise.resolve({ status: 'failed', failure: describeFailure(escaped.docId, error) }),
        });
        continue;
      }
      // A doc_id met again in this run: its earlier version is written first, so change detection sees it.
      if (writer.has(item.docId) || pending.some((p) => p.item.docId === item.docId)) {
        while (pending.length > 0) await next();
        await writer.drain();
      }
      while (pending.length >= ahead) await next();
      const task = (previous: StoredVersion | undefined): DocumentTask => ({
        item,
        previous,
        acl: options.acl,
        force: options.force ?? false,
        extras: summarizer === extractiveSummarizer,
        embed: embedHere,
        analysedForms: this.deps.store.keepsAnalysedForms === true,
      });
      pending.push({
        item,
        result: this.storedVersion(item).then(
          (previous) => run(task(previous)),
          (error: unknown): DocumentResult => ({ status: 'failed', failure: describeFailure(item.docId, error) }),
        ),
      });
    }
    while (pending.length > 0) await next();
    await writer.drain();
    return summarize(outcomes, performance.now() - started);
  }

  /** The result of the next document; a batch that comes due meanwhile is written rather than kept waiting. */
  private async awaitWriting(writer: BatchWriter, result: Promise<DocumentResult>): Promise<DocumentResult> {
    const wait = writer.dueIn();
    if (wait === Infinity) return result;
    let timer: NodeJS.Timeout | undefined;
    const due = new Promise<'due'>((resolve) => {
      timer = setTimeout(() => resolve('due'), wait);
    });
    const first = await Promise.race([result, due]);
    clearTimeout(timer);
    if (first !== 'due') return first;
    await writer.flush();
    return result;
  }

  /** What change detection needs of the stored version of `item`. */
  private async storedVersion(item: SourceItem): Promise<StoredVersion | undefined> {
    const { store, config } = this.deps;
    const { docId } = item;
    const previous = await store.getDocument(docId);
    if (!previous) return undefined;
    const hasExtras = (await store.documentExtrasInfo(docId)) !== undefined;
    // An upload stored before uploads kept their file is rewritten with it, though its content is unchanged.
    const keeps = item.kind === 'file' && item.file.keepOriginal === true;
    const hasOriginal =
      keeps &&
      (await store.readDocumentFile(docId, previous.contentHash, LOCAL_OPERATOR, config.ingest.maxFileBytes)) !==
        undefined;
    return {
      contentHash: previous.contentHash,
      acl: previous.acl,
      source: previous.source,
      chunkCount: previous.chunkCount,
      hasExtras,
      hasOriginal,
    };
  }

  private inThread(task: DocumentTask): Promise<DocumentResult> {
    const { config, embedder, logger, figures } = this.deps;
    return processDocument(task, {
      chunk: config.chunk,
      limits: config.ingest,
      logger,
      embedder,
      ...(figures ? { figures } : {}),
    });
  }

  private async inPool(pool: WorkerPool<DocumentTask, WorkerAnswer>, task: DocumentTask): Promise<DocumentResult> {
    let answer: WorkerAnswer;
    try {
      answer = await pool.run(task);
    } catch (error) {
      // Workers that cannot start (a bundled build) leave the work to this thread; a crash fails the document alone.
      if (error instanceof WorkerStartError) {
        if (!this.warnedNoWorkers)
          this.deps.logger.warn('ingest: worker threads could not start, ingesting on this thread', {
            error: error.message,
          });
        this.warnedNoWorkers = true;
        return this.inThread(task);
      }
      return { status: 'failed', failure: describeFailure(task.item.docId, error) };
    }
    if (!this.announcedWorkers)
      this.deps.logger.debug('ingest: documents are processed on worker threads', { workers: pool.size });
    this.announcedWorkers = true;
    for (const { level, message, fields } of answer.logs) this.deps.logger[level](message, fields);
    return answer.result;
  }

  /** The pool for a call of `documents` documents, or none: few documents stay on this thread unless workers are up. */
  private poolFor(documents: number): WorkerPool<DocumentTask, WorkerAnswer> | undefined {
    const { config, embedder } = this.deps;
    const size = config.ingest.workers ?? availableParallelism();
    // A figure's description is part of the text chunked, and the vision model is called from this thread: with one,
    // documents are read here. The model's seconds per figure outweigh what parallel parsing would save.
    if (this.deps.figures) return undefined;
    if (size === 0 || !WorkerPool.entryExists(WORKER_ENTRY)) return undefined;
    if (this.pool?.usable && this.pool.running) return this.pool;
    if (documents < config.ingest.workerMinDocuments) return undefined;
    if (!this.pool?.usable) {
      if (this.pool) return undefined;
      const workerData: IngestWorkerData = {
        chunk: config.chunk,
        limits: config.ingest,
        embedderSpec: embedder.cacheInStore ? undefined : embedder.workerSpec,
      };
      this.pool = new WorkerPool({ entry: WORKER_ENTRY, size, workerData, idleMs: WORKER_IDLE_MS });
    }
    return this.pool;
  }
}

const fileItem = (file: DiscoveredFile): SourceItem => ({ kind: 'file', file, path: file.path, docId: file.docId });

export { formatBytes } from './limits.ts';
