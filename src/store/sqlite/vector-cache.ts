import type { EmbedderInfo } from '../ports/document-store.ts';
import { VISIBLE_DOC_PKS } from './acl-sql.ts';
import { createDotKernel } from './dot-kernel.ts';
import type { SqliteConnection } from './sqlite-connection.ts';
import { blobToVector } from './vector-codec.ts';
import { VectorIndex } from './vector-index.ts';

/** Distinct principals whose visible-row lists are kept per generation. */
const VISIBLE_ROWS_CACHE_SIZE = 32;

/** What a committed write changed in the vector table, replayed onto this process's in-memory index. */
export interface VectorDelta {
  removed: number[];
  added: { chunkPk: number; docPk: number; vector: Float32Array }[];
  /** The write replaced every vector (reindex): rebuild instead of replaying. */
  rebuild?: boolean;
}

/**
 * The vectors in memory for the kernel: loaded from the vec0 table on the first vector query, then kept in step
 * with the store's `generation` — replayed after this process's own writes, reloaded after another's.
 */
export class VectorCache {
  private index: VectorIndex | undefined;
  private indexGeneration = -1;
  /** Row lists of the index a principal may see, by ACL key set; valid for `indexGeneration` only. */
  private readonly visibleRows = new Map<string, Int32Array | 'all'>();
  private loadCount = 0;

  constructor(private readonly conn: SqliteConnection) {}

  /** How often the index was (re)built from the file: observable by tests of cross-process freshness. */
  get loads(): number {
    return this.loadCount;
  }

  clear(): void {
    this.index = undefined;
    this.indexGeneration = -1;
    this.visibleRows.clear();
  }

  /**
   * After a write committed as generation `after` (from `before`): replays its vector changes onto the index only
   * if the index was current before the write; otherwise another process wrote in between, and the index is
   * dropped, to be reloaded on the next vector query.
   */
  afterWrite(delta: VectorDelta, before: number, after: number): void {
    this.visibleRows.clear();
    const index = this.index;
    if (!index || delta.rebuild || this.indexGeneration !== before) {
      this.clear();
      return;
    }
    for (const chunkPk of delta.removed) index.remove(chunkPk);
    for (const { chunkPk, docPk, vector } of delta.added) index.upsert(chunkPk, docPk, vector);
    this.indexGeneration = after;
  }

  /** The in-memory index as of the current generation, (re)loading it from the vec0 table when stale. */
  current(embedder: EmbedderInfo): VectorIndex {
    const generation = this.conn.generation();
    if (this.index && this.indexGeneration === generation && this.index.dimension === embedder.dimension) {
      return this.index;
    }
    const started = performance.now();
    this.clear();
    const index = new VectorIndex(createDotKernel(), embedder.dimension);
    const rows = this.conn
      .stmt('SELECT v.rowid AS pk, c.doc_pk, v.embedding FROM chunk_vectors v JOIN chunks c ON c.pk = v.rowid')
      .raw()
      .iterate() as IterableIterator<[number, number, Buffer]>;
    for (const [pk, docPk, blob] of rows) {
      // Blobs may sit at any byte offset of a pooled buffer; view in place only when aligned.
      const vector =
        blob.byteOffset % 4 === 0
          ? new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2)
          : blobToVector(blob);
      index.upsert(pk, docPk, vector);
    }
    this.index = index;
    this.indexGeneration = generation;
    this.loadCount++;
    this.conn.logger.debug('vector index loaded', {
      vectors: index.size,
      dimension: embedder.dimension,
      kernel: index.kernelKind,
      ms: Math.round(performance.now() - started),
    });
    return index;
  }

  /** Rows of `index` the principal may see ('all' when nothing is filtered), cached per ACL key set. */
  rowsVisibleTo(index: VectorIndex, keys: readonly string[] | undefined): Int32Array | 'all' {
    if (keys === undefined) return 'all';
    const cacheKey = JSON.stringify([...new Set(keys)].sort());
    const cached = this.visibleRows.get(cacheKey);
    if (cached) return cached;
    const docs = new Set(
      (this.conn.stmt(`SELECT pk FROM ${VISIBLE_DOC_PKS}`).all({ keys: cacheKey }) as { pk: number }[]).map((row) => row.pk),
    );
    const rows = index.rowsWhere((docPk) => docs.has(docPk));
    const result = rows.length === index.size ? 'all' : rows;
    if (this.visibleRows.size >= VISIBLE_ROWS_CACHE_SIZE) {
      const oldest = this.visibleRows.keys().next().value;
      if (oldest !== undefined) this.visibleRows.delete(oldest);
    }
    this.visibleRows.set(cacheKey, result);
    return result;
  }
}
