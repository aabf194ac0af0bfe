import type { Logger } from '../logging/logger.ts';
import type { Embedder } from '../models/embedder.ts';
import { embedWithCache } from '../retrieval/embed-with-cache.ts';
import type { DocumentExtras } from '../store/document-extras.ts';
import type { DocumentStore, DocumentWrite } from '../store/ports/document-store.ts';
import { buildDocumentExtras } from './extras/build-extras.ts';
import type { ChapterSummarizer } from './extras/chapter-summarizer.ts';
import type { IngestOutcome } from './ingest-progress.ts';
import { describeFailure, type DocumentResult, type FailureInfo, type VersionResult } from './process-document.ts';

export interface BatchBounds {
  documents: number;
  bytes: number;
  ms: number;
}

export interface BatchWriterDeps {
  store: DocumentStore;
  embedder: Embedder;
  logger: Logger;
  summarizer: ChapterSummarizer;
  bounds: BatchBounds;
  /** Called for each document once its fate is final (written, unchanged or failed), in the order they were added. */
  report: (outcome: IngestOutcome) => void;
}

interface Entry {
  outcome: IngestOutcome;
  /** The document's version, then those of the documents found inside it: written in one transaction. */
  writes: DocumentWrite[];
  extras?: { contentHash: string; extras: DocumentExtras };
}

/**
 * The writing end of ingestion: documents come in order, finished on this thread where they must be (a model's
 * summaries, a remote or cached embedder), and are written several per transaction. A batch is written when it
 * holds `bounds.documents` documents or `bounds.bytes` of text, or has waited `bounds.ms`; a batch that fails is
 * written again one document at a time, so one bad document fails alone. Outcomes are reported after their write.
 */
export class BatchWriter {
  private entries: Entry[] = [];
  private bytes = 0;
  private startedAt = 0;
  /** Batches written (or being written) and not yet reported, oldest first. */
  private readonly inFlight: { docIds: Set<string>; written: Promise<Entry[]> }[] = [];

  constructor(private readonly deps: BatchWriterDeps) {}

  get size(): number {
    return this.entries.length;
  }

  /** Whether `docId` waits in the batch or in a write not yet reported. */
  has(docId: string): boolean {
    return (
      this.entries.some((entry) => entry.outcome.docId === docId) ||
      this.inFlight.some((batch) => batch.docIds.has(docId))
    );
  }

  /** Milliseconds until the batch is due by age (0: due now); Infinity when empty. */
  dueIn(): number {
    return this.entries.length === 0 ? Infinity : Math.max(0, this.startedAt + this.deps.bounds.ms - performance.now());
  }

  /** Adds `item`'s result; writes the batch when it is full. */
  async add(item: { path: string; docId: string }, result: DocumentResult): Promise<void> {
    const entry = await this.finish(item, result);
    if (this.entries.length === 0) this.startedAt = performance.now();
    this.entries.push(entry);
    for (const write of entry.writes) {
      for (const chunk of write.chunks) this.bytes += chunk.text.length;
      // An upload's original travels in the same transaction: it counts towards the batch's size.
      this.bytes += write.original?.byteLength ?? 0;
    }
    const { bounds } = this.deps;
    if (this.entries.length >= bounds.documents || this.bytes >= bounds.bytes || this.dueIn() === 0) await this.flush();
  }

  /**
   * Starts writing the batch; waits for (and reports) the oldest writes beyond what the store takes at once
   * (`concurrentDocumentWrites`), so outcomes are reported in order, each after its transaction committed.
   */
  async flush(): Promise<void> {
    const entries = this.entries;
    this.entries = [];
    this.bytes = 0;
    if (entries.length > 0)
      this.inFlight.push({
        docIds: new Set(entries.map((entry) => entry.outcome.docId)),
        written: this.write(entries),
      });
    while (this.inFlight.length > this.deps.store.concurrentDocumentWrites) await this.reportOldest();
  }

  /** Writes what is left and reports every outcome. */
  async drain(): Promise<void> {
    await this.flush();
    while (this.inFlight.length > 0) await this.reportOldest();
  }

  private async reportOldest(): Promise<void> {
    const oldest = this.inFlight.shift();
    if (oldest) for (const entry of await oldest.written) this.deps.report(entry.outcome);
  }

  /** Writes one batch; never fails (a document that cannot be written gets a failed outcome). */
  private async write(entries: Entry[]): Promise<Entry[]> {
    const { store } = this.deps;
    const writing = entries.filter((entry) => entry.writes.length > 0);
    // A document with the documents found inside it is one write, alone or in a batch.
    const writeOne = (entry: Entry) =>
      entry.writes.length === 1
        ? store.putDocument(entry.writes[0] as DocumentWrite)
        : store.putDocuments(entry.writes);
    if (writing.length > 1) {
      try {
        await store.putDocuments(writing.flatMap((entry) => entry.writes));
      } catch {
        // Which document failed is not known: each is written alone, and only the bad one fails.
        for (const entry of writing) await this.apply(entry, () => writeOne(entry));
      }
    } else {
      for (const entry of writing) await this.apply(entry, () => writeOne(entry));
    }
    for (const entry of entries) {
      const { extras } = entry;
      if (extras)
        await this.apply(entry, () => store.putDocumentExtras(entry.outcome.docId, extras.contentHash, extras.extras));
    }
    return entries;
  }

  private async apply(entry: Entry, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      entry.outcome = this.failed(entry.outcome, describeFailure(entry.outcome.docId, error));
    }
  }

  /** The entry of a processed document: its extras and vectors made here when they were not made where it was read. */
  private async finish(item: { path: string; docId: string }, result: DocumentResult): Promise<Entry> {
    const { embedder, summarizer, logger, store } = this.deps;
    try {
      switch (result.status) {
        case 'failed':
          return {
            outcome: this.failed({ ...item, status: 'failed', chunks: 0, pages: 0, tables: 0 }, result.failure),
            writes: [],
          };
        case 'unchanged':
          return { outcome: { ...result.base, status: 'unchanged', chunks: result.chunks }, writes: [] };
        case 'extras': {
          const extras = result.extras ?? (await buildDocumentExtras(result.version!, summarizer, logger));
          return {
            outcome: { ...result.base, status: 'unchanged', chunks: result.chunks },
            writes: [],
            extras: { contentHash: result.contentHash, extras },
          };
        }
        case 'write': {
          const writes: DocumentWrite[] = [];
          for (const version of [result, ...(result.attachments ?? [])]) writes.push(await this.complete(version));
          const attachments = writes.slice(1).map((write) => write.document.docId);
          return {
            outcome: {
              ...result.base,
              status: result.replaces ? 'updated' : 'added',
              chunks: writes.reduce((sum, write) => sum + write.chunks.length, 0),
              ...(attachments.length > 0 ? { attachments } : {}),
            },
            writes,
          };
        }
      }
    } catch (error) {
      return {
        outcome: this.failed(
          { ...item, status: 'failed', chunks: 0, pages: 0, tables: 0 },
          describeFailure(item.docId, error),
        ),
        writes: [],
      };
    }
  }

  /** A version's write with its extras and vectors, made here when they were not made where it was read. */
  private async complete(version: VersionResult): Promise<DocumentWrite> {
    const { embedder, summarizer, logger, store } = this.deps;
    const extras = version.extras ?? (await buildDocumentExtras(version.version!, summarizer, logger));
    const vectors =
      version.vectors ??
      (await embedWithCache({ store, embedder }, version.searchTexts ?? [], version.write.keywordText));
    return { ...version.write, vectors, embedder: { id: embedder.id, dimension: embedder.dimension }, extras };
  }

  /** A failed outcome, logged in full when it is not the user's file's fault. */
  private failed(outcome: IngestOutcome, failure: FailureInfo): IngestOutcome {
    if (failure.unexpected) this.deps.logger.error('ingest failed', { path: outcome.path, error: failure.detail });
    return {
      path: outcome.path,
      docId: outcome.docId,
      status: 'failed',
      chunks: 0,
      pages: 0,
      tables: 0,
      error: { code: failure.code, message: failure.message, ...(failure.hint ? { hint: failure.hint } : {}) },
    };
  }
}
