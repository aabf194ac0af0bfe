import { randomBytes } from 'node:crypto';
import { renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EmbedderInfo } from '../../ports/document-store.ts';
import { VISIBLE_DOC_PKS } from '../acl-sql.ts';
import { createDotKernel, type DotKernel } from './dot-kernel.ts';
import type { SqliteConnection } from '../connection.ts';
import { blobToVector } from './vector-codec.ts';
import { createThreadedDotKernel } from './vector-scan-threads.ts';
import { VectorIndex, type StoredFloats } from './vector-index.ts';
import { openSnapshot, writeSnapshot } from './vector-snapshot.ts';

/** Distinct principals whose visible-row lists are kept per generation. */
const VISIBLE_ROWS_CACHE_SIZE = 32;
/** Quiet time after this process's last write before the snapshot is rewritten, so a burst of writes costs one. */
const PERSIST_AFTER_WRITES_MS = 1000;
/** Below this many vectors a load from vec0 is quick enough that writing a snapshot would not pay for itself. */
const SNAPSHOT_MIN_ROWS = 5000;
/** From this many vectors the int8 scan is split over helper threads (which reserve a shared 4 GiB memory each index). */
const THREADED_MIN_ROWS = 50_000;
/** Up to this document pk, a principal's visible documents are a byte array rather than a set. */
const DENSE_DOC_PKS_MAX = 1 << 24;
/** store_meta key naming the snapshot file's generation and token. */
const SNAPSHOT_META_KEY = 'vector_snapshot';

interface SnapshotMeta {
  generation: number;
  token: string;
  dimension: number;
}

/** What a committed write changed in the vector table, replayed onto this process's in-memory index. */
export interface VectorDelta {
  removed: number[];
  added: { chunkPk: number; docPk: number; vector: Float32Array }[];
  /** The write replaced every vector (reindex): rebuild instead of replaying. */
  rebuild?: boolean;
}

/**
 * The vectors in memory for the kernel, kept in step with the store's `generation` — replayed after this process's
 * own writes, reloaded after another's. A load reads the snapshot file (see `snapshotPath`) when it names the
 * current generation, else decodes the vec0 table and then writes the snapshot, so the next process's first query
 * is a few reads. After this process's writes the snapshot is rewritten once they go quiet.
 */
export class VectorCache {
  private index: VectorIndex | undefined;
  private indexGeneration = -1;
  /** Row lists of the index a principal may see, by ACL key set; valid for `indexGeneration` only. */
  private readonly visibleRows = new Map<string, Int32Array | 'all'>();
  private loadCount = 0;
  private snapshotLoadCount = 0;
  private pendingPersist: { cancel(): void } | undefined;
  /** The index was decoded from vec0 and no snapshot holds it yet: `settle` writes one. */
  private persistDue = false;
  private readonly snapshotMinRows: number;

  constructor(
    private readonly conn: SqliteConnection,
    options: { snapshotMinRows?: number } = {},
  ) {
    this.snapshotMinRows = options.snapshotMinRows ?? SNAPSHOT_MIN_ROWS;
  }

  /** How many of `loads` came from the snapshot file rather than the vec0 table. */
  get snapshotLoads(): number {
    return this.snapshotLoadCount;
  }

  /**
   * The snapshot file's path, or undefined for an in-memory store. A hidden name beside the store
   * (`.evident.db.vectors`), so ingesting a folder the store lives in never takes it for a document. A read-only
   * connection reads it but never writes it.
   */
  get snapshotPath(): string | undefined {
    const { db, location } = this.conn;
    return db.memory ? undefined : join(dirname(location), `.${basename(location)}.vectors`);
  }

  private get snapshotWritable(): boolean {
    return this.snapshotPath !== undefined && !this.conn.db.readonly;
  }

  /** How often the index was (re)built from the file: observable by tests of cross-process freshness. */
  get loads(): number {
    return this.loadCount;
  }

  clear(): void {
    this.persistDue = false;
    this.pendingPersist?.cancel();
    this.pendingPersist = undefined;
    this.index?.close();
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
    this.schedulePersist(PERSIST_AFTER_WRITES_MS);
  }

  /** The in-memory index as of the current generation, (re)loading it from the vec0 table when stale. */
  current(embedder: EmbedderInfo): VectorIndex {
    const generation = this.conn.generation();
    if (this.index && this.indexGeneration === generation && this.index.dimension === embedder.dimension) {
      return this.index;
    }
    const started = performance.now();
    this.clear();
    const restored = this.restore(embedder, generation);
    const index = restored ?? this.decode(embedder);
    this.index = index;
    this.indexGeneration = generation;
    this.loadCount++;
    if (restored) this.snapshotLoadCount++;
    else this.persistDue = index.size >= this.snapshotMinRows;
    this.conn.logger.debug('vector index loaded', {
      vectors: index.size,
      dimension: embedder.dimension,
      kernel: index.kernelKind,
      from: restored ? 'snapshot' : 'vec0',
      ms: Math.round(performance.now() - started),
    });
    return index;
  }

  /** The index from the snapshot file, if the store records one for `generation` and the file is that one. */
  private restore(embedder: EmbedderInfo, generation: number): VectorIndex | undefined {
    const path = this.snapshotPath;
    if (!path) return undefined;
    const row = this.conn.stmt('SELECT value FROM store_meta WHERE key = ?').get(SNAPSHOT_META_KEY) as
      | { value: string }
      | undefined;
    if (!row) return undefined;
    let meta: SnapshotMeta;
    try {
      meta = JSON.parse(row.value) as SnapshotMeta;
    } catch {
      return undefined;
    }
    if (meta.generation !== generation || meta.dimension !== embedder.dimension) return undefined;
    const image = openSnapshot(path, meta);
    if (!image) return undefined;
    try {
      return VectorIndex.restore(kernelFor(image.rows), embedder.dimension, image);
    } catch (error) {
      image.floats.close();
      this.conn.logger.warn('vector snapshot unreadable; loading from the vector table', {
        path,
        error: (error as Error).message,
      });
      return undefined;
    }
  }

  /** Every vector decoded from the vec0 table (the floats stay in memory until a snapshot holds them). */
  private decode(embedder: EmbedderInfo): VectorIndex {
    const { count } = this.conn.stmt('SELECT count(*) AS count FROM chunks').get() as { count: number };
    const index = new VectorIndex(kernelFor(count), embedder.dimension);
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
    return index;
  }

  /**
   * Writes the snapshot if the last load decoded vec0. Called once the query's read transaction has ended, so the
   * query that paid for the decode also pays for the write, and the next process's first query does not.
   */
  settle(): void {
    if (!this.persistDue) return;
    this.persistDue = false;
    this.persist();
  }

  /** Writes a snapshot still waiting for writes to go quiet, now (for a store about to close its connection). */
  flush(): void {
    if (!this.pendingPersist && !this.persistDue) return;
    this.pendingPersist?.cancel();
    this.pendingPersist = undefined;
    this.persistDue = false;
    this.persist();
  }

  /** Rewrites the snapshot `delayMs` after this process's last write (if the index is loaded and big enough). */
  private schedulePersist(delayMs: number): void {
    if (!this.snapshotWritable || !this.index || this.index.size < this.snapshotMinRows) return;
    this.pendingPersist?.cancel();
    // A process that exits sooner leaves the snapshot stale: the next load decodes vec0 and writes it.
    const handle = setTimeout(() => {
      this.pendingPersist = undefined;
      this.persist();
    }, delayMs);
    handle.unref();
    this.pendingPersist = { cancel: () => clearTimeout(handle) };
  }

  /**
   * Writes the current index to a new file, then — in one write transaction, only if the store is still at the
   * index's generation — renames it into place and records its token, so readers never see a file the store does
   * not vouch for. The index then reads its float rows from that file and frees the ones in memory.
   */
  private persist(): void {
    const index = this.index;
    const path = this.snapshotPath;
    if (!index || !path || !this.snapshotWritable || !this.conn.isOpen) return;
    const generation = this.indexGeneration;
    const token = randomBytes(16).toString('hex');
    const temporary = `${path}.${token}.tmp`;
    let floats: StoredFloats | undefined;
    let committed = false;
    try {
      floats = writeSnapshot(temporary, index, { generation, token });
      committed = this.conn.immediate(() => {
        if (this.conn.generation() !== generation) return false;
        renameSync(temporary, path);
        const meta: SnapshotMeta = { generation, token, dimension: index.dimension };
        this.conn
          .stmt('INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)')
          .run(SNAPSHOT_META_KEY, JSON.stringify(meta));
        return true;
      });
    } catch (error) {
      this.conn.logger.warn('could not write the vector snapshot', { path, error: (error as Error).message });
    }
    if (committed && floats && this.index === index) {
      index.adopt(floats);
      return;
    }
    floats?.close();
    try {
      unlinkSync(temporary);
    } catch {
      // already renamed into place, or never created
    }
  }

  /** Rows of `index` the principal may see ('all' when nothing is filtered), cached per ACL key set. */
  rowsVisibleTo(index: VectorIndex, keys: readonly string[] | undefined): Int32Array | 'all' {
    if (keys === undefined) return 'all';
    const cacheKey = JSON.stringify([...new Set(keys)].sort());
    const cached = this.visibleRows.get(cacheKey);
    if (cached) return cached;
    const pks = (this.conn.stmt(`SELECT pk FROM ${VISIBLE_DOC_PKS}`).all({ keys: cacheKey }) as { pk: number }[]).map(
      (row) => row.pk,
    );
    // Document pks are small integers: a byte per pk answers each of the index's rows with one read, not a hash lookup.
    const top = pks.reduce((max, pk) => (Number.isSafeInteger(pk) && pk > max ? pk : max), 0);
    let visible: (docPk: number) => boolean;
    if (top <= DENSE_DOC_PKS_MAX && pks.every((pk) => Number.isSafeInteger(pk) && pk >= 0)) {
      const dense = new Uint8Array(top + 1);
      for (const pk of pks) dense[pk] = 1;
      visible = (docPk) => dense[docPk] === 1;
    } else {
      const docs = new Set(pks);
      visible = (docPk) => docs.has(docPk);
    }
    const rows = index.rowsWhere(visible);
    const result = rows.length === index.size ? 'all' : rows;
    if (this.visibleRows.size >= VISIBLE_ROWS_CACHE_SIZE) {
      const oldest = this.visibleRows.keys().next().value;
      if (oldest !== undefined) this.visibleRows.delete(oldest);
    }
    this.visibleRows.set(cacheKey, result);
    return result;
  }
}

/** The kernel for an index of about `rows` vectors: scans split over threads for a large one. */
const kernelFor = (rows: number): DotKernel =>
  (rows >= THREADED_MIN_ROWS ? createThreadedDotKernel() : undefined) ?? createDotKernel();
