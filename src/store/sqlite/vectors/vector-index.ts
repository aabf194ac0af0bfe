import { CodeLoader, type CodeSource } from './code-loader.ts';
import type { DotKernel } from './dot-kernel.ts';
import { codeStrideFor, QUERY_LEVELS, quantizeInto, ROW_LEVELS } from './vector-quantize.ts';
import { topK } from './top-k.ts';
import { scanThroughWindow } from './window-scan.ts';

/** Floats per row: the dimension rounded up to 16, the float kernel's unrolled step. */
const strideFor = (dimension: number): number => Math.ceil(dimension / 16) * 16;

/**
 * Candidates rescored with exact floats per result asked for. The int8 scan's error is small next to the score gaps
 * that decide a top-10, so 4× the channel depth keeps recall@10 ≥ 0.99 against exact search (measured by
 * bench/retrieval/filtered-recall.ts); at least RESCORE_MIN, so a short limit still gets a margin.
 */
export const RESCORE_FACTOR = 4;
const RESCORE_MIN = 64;
/**
 * Up to this many times the rescoring depth, every visible row is scored exactly in float and the int8 pass is
 * skipped: a reader who sees few rows pays a copy and a float dot per row (~0.4 µs) instead of the int8 pass's
 * fixed cost (a scan, a top-k and the rescoring of the full depth).
 */
const EXACT_BELOW_DEPTHS = 2;

/** A search begun by `VectorIndex.startSearch`. */
export interface StartedSearch {
  /** The int8 scan runs on helper threads: this thread is free until `hits()`. */
  readonly running: boolean;
  /** Finishes the search (once; later calls return the same hits). */
  hits(): VectorHit[];
  /** Drops the search unfinished (its scan is still joined, so the memory is free for the next). */
  cancel(): void;
}

export interface VectorHit {
  chunkPk: number;
  /** Cosine similarity (exact, from the float rows): stored rows and the query are normalised. */
  score: number;
}

/** Normalised float rows kept outside memory (a snapshot file), read back for rescoring. */
export interface StoredFloats {
  read(fileRow: number, into: Float32Array): void;
  /** Starts copying the rows into memory in the background, so later reads need no I/O. */
  preload(): void;
  close(): void;
}

/** A whole index as persisted: rows in order, codes as the kernel lays them out. */
export interface IndexImage {
  rows: number;
  pks: Float64Array;
  docs: Float64Array;
  scales: Float32Array;
  /** Fills `into` (rows × code stride bytes) with the int8 codes. */
  readCodes(into: Uint8Array): void;
  /** The codes' place in a file, when they can be read by range (and by another thread). */
  codeSource?: CodeSource;
  floats: StoredFloats;
}

/**
 * From this many rows, a restore into shared kernel memory leaves the codes to a background thread (CodeLoader) and
 * queries scan the rows it has not copied yet through a window read from the file (window-scan.ts).
 */
const BACKGROUND_CODES_MIN_ROWS = 20_000;

/**
 * Every vector of the store as one int8 (scalar-quantized) matrix in the kernel's memory, scanned first — a quarter
 * of the float bytes, so a quarter of the memory traffic — then the best candidates rescored with their exact
 * normalised float rows. Float rows live in a snapshot file (read per candidate) or, for rows written since that
 * snapshot, in memory.
 *
 * Memory layout (bytes): [query f32: stride×4][query i16: codeStride×2][codes: capacity×codeStride]
 * [scales: capacity×4][scores: capacity×4][row list: capacity×4][rescore block]. The codes keep their offset when
 * capacity grows; the scales are moved, the scratch areas simply move. Rows are removed by moving the last row into
 * the hole, so row numbers are only stable between writes.
 */
export class VectorIndex {
  readonly stride: number;
  readonly codeStride: number;
  private readonly queryI16Offset: number;
  private readonly codesOffset: number;
  private capacity = 0;
  private rows = 0;
  private rowPk = new Float64Array(0);
  private rowDoc = new Float64Array(0);
  /** Row of the snapshot file holding this row's floats, or -1 when they are in `resident`. */
  private rowFile = new Int32Array(0);
  /** Row of each chunk pk, built on the first write (a restored index that only answers queries never needs it). */
  private rowOfPkMap: Map<number, number> | undefined = new Map();
  private readonly resident = new Map<number, Float32Array>();
  private stored: StoredFloats | undefined;
  /** Copies the restored codes in the background; undefined once every row is in memory. */
  private loader: CodeLoader | undefined;
  private codeSource: CodeSource | undefined;
  private readonly scratch: Int8Array;
  /** The begun search not finished yet (see `startSearch`). */
  private pendingSearch: (() => VectorHit[]) | undefined;

  constructor(
    private readonly kernel: DotKernel,
    readonly dimension: number,
  ) {
    this.stride = strideFor(dimension);
    this.codeStride = codeStrideFor(dimension);
    this.queryI16Offset = this.stride * 4;
    this.codesOffset = this.queryI16Offset + this.codeStride * 2;
    this.scratch = new Int8Array(this.codeStride);
    this.ensureCapacity(1024);
  }

  /**
   * An index over a persisted image: the codes are read into the kernel's memory (by a background thread for a large
   * index in shared memory, see CodeLoader), floats stay on disk until their own thread has copied them.
   */
  static restore(kernel: DotKernel, dimension: number, image: IndexImage): VectorIndex {
    const index = new VectorIndex(kernel, dimension);
    index.ensureCapacity(image.rows);
    const memory = kernel.buffer();
    const background =
      image.codeSource !== undefined &&
      image.rows >= BACKGROUND_CODES_MIN_ROWS &&
      typeof SharedArrayBuffer === 'function' &&
      (memory as unknown) instanceof SharedArrayBuffer;
    if (!background) image.readCodes(new Uint8Array(memory, index.codesOffset, image.rows * index.codeStride));
    new Float32Array(kernel.buffer(), index.scalesOffset(), image.rows).set(image.scales.subarray(0, image.rows));
    index.rowPk.set(image.pks.subarray(0, image.rows));
    index.rowDoc.set(image.docs.subarray(0, image.rows));
    for (let row = 0; row < image.rows; row++) index.rowFile[row] = row;
    index.rowOfPkMap = undefined;
    index.rows = image.rows;
    index.stored = image.floats;
    if (background && image.codeSource) {
      // The float rows' copy waits for the codes': both are mostly first touches of fresh memory, on two cores.
      index.codeSource = image.codeSource;
      index.loader = new CodeLoader(
        image.codeSource,
        memory as unknown as SharedArrayBuffer,
        index.codesOffset,
        image.rows,
        index.codeStride,
        () => image.floats.preload(),
      );
    } else {
      image.floats.preload();
    }
    return index;
  }

  /** Rows from 0 whose codes are in memory (all of them unless a restore's copy is still running). */
  private codesInMemory(): number {
    if (!this.loader) return this.rows;
    const loaded = this.loader.loadedRows();
    if (loaded >= this.rows) this.loader = undefined;
    return loaded;
  }

  /** Before anything changes or reads the codes as a whole: every row in memory, the copying thread ended. */
  private settleCodes(): void {
    this.loader?.finish();
    this.loader = undefined;
  }

  get size(): number {
    return this.rows;
  }

  get kernelKind(): DotKernel['kind'] {
    return this.kernel.kind;
  }

  /** Rows whose floats are held in memory (written since the snapshot file, or loaded without one). */
  get residentRows(): number {
    return this.resident.size;
  }

  private get rowOfPk(): Map<number, number> {
    if (!this.rowOfPkMap) {
      this.rowOfPkMap = new Map();
      for (let row = 0; row < this.rows; row++) this.rowOfPkMap.set(this.rowPk[row] as number, row);
    }
    return this.rowOfPkMap;
  }

  /** Adds or overwrites the vector of a chunk. */
  upsert(chunkPk: number, docPk: number, vector: Float32Array): void {
    this.settleSearch();
    this.settleCodes();
    const rowOfPk = this.rowOfPk;
    let row = rowOfPk.get(chunkPk);
    if (row === undefined) {
      this.ensureCapacity(this.rows + 1);
      row = this.rows;
      this.rows++;
      rowOfPk.set(chunkPk, row);
    }
    this.rowPk[row] = chunkPk;
    this.rowDoc[row] = docPk;
    const normalised = new Float32Array(this.dimension);
    normaliseInto(vector, this.dimension, normalised);
    this.resident.set(chunkPk, normalised);
    this.rowFile[row] = -1;
    const scale = quantizeInto(normalised, this.dimension, ROW_LEVELS, this.scratch);
    new Int8Array(this.kernel.buffer(), this.codesOffset + row * this.codeStride, this.codeStride).set(this.scratch);
    new Float32Array(this.kernel.buffer(), this.scalesOffset(), this.capacity)[row] = scale;
  }

  remove(chunkPk: number): void {
    this.settleSearch();
    this.settleCodes();
    const row = this.rowOfPk.get(chunkPk);
    if (row === undefined) return;
    this.rowOfPk.delete(chunkPk);
    this.resident.delete(chunkPk);
    const last = this.rows - 1;
    if (row !== last) {
      const bytes = new Uint8Array(this.kernel.buffer());
      const from = this.codesOffset + last * this.codeStride;
      bytes.copyWithin(this.codesOffset + row * this.codeStride, from, from + this.codeStride);
      const scales = new Float32Array(this.kernel.buffer(), this.scalesOffset(), this.capacity);
      scales[row] = scales[last] as number;
      const movedPk = this.rowPk[last] as number;
      this.rowPk[row] = movedPk;
      this.rowDoc[row] = this.rowDoc[last] as number;
      this.rowFile[row] = this.rowFile[last] as number;
      this.rowOfPk.set(movedPk, row);
    }
    this.rows = last;
  }

  /** Row numbers (ascending, so the scan stays sequential) of the chunks whose document passes `visible`. */
  rowsWhere(visible: (docPk: number) => boolean): Int32Array {
    const out = new Int32Array(this.rows);
    let count = 0;
    for (let row = 0; row < this.rows; row++) if (visible(this.rowDoc[row] as number)) out[count++] = row;
    return out.slice(0, count);
  }

  /**
   * The `limit` rows most similar to `query`, by exact cosine. With `rows`, only those rows are scored, so a
   * principal's filter applies before ranking rather than after. The int8 scan picks the candidates
   * (`limit` × RESCORE_FACTOR of them); when there are few rows (EXACT_BELOW_DEPTHS × that), every row is scored
   * exactly.
   */
  search(query: Float32Array, limit: number, rows?: Int32Array): VectorHit[] {
    return this.startSearch(query, limit, rows).hits();
  }

  /**
   * `search`, begun: where the kernel scans on helper threads, the int8 scan is posted to them and this returns at
   * once (`running`), so the caller may do other work on this thread meanwhile; `hits()` finishes the search here
   * (the blocks no helper took, the top-k, the rescoring). A change to the index, or the next search, finishes a
   * begun one first, so its hits are those of the rows as they were when it began.
   */
  startSearch(query: Float32Array, limit: number, rows?: Int32Array): StartedSearch {
    this.settleSearch();
    const candidates = rows ? rows.length : this.rows;
    if (candidates === 0 || limit <= 0) return { running: false, hits: () => [], cancel: () => undefined };
    const depth = Math.max(limit * RESCORE_FACTOR, RESCORE_MIN);
    const scoresOffset = this.scalesOffset() + this.capacity * 4;
    const rowListOffset = scoresOffset + this.capacity * 4;
    const rowAt = rows ? (i: number) => rows[i] as number : (i: number) => i;
    let blockOffset = rowListOffset + this.capacity * 4;
    let running = false;
    let pick: () => Int32Array;
    if (candidates <= depth * EXACT_BELOW_DEPTHS) {
      pick = () => Int32Array.from({ length: candidates }, (_, i) => rowAt(i));
    } else {
      this.writeQuery(query);
      if (rows) new Int32Array(this.kernel.buffer(), rowListOffset, rows.length).set(rows);
      const loaded = this.codesInMemory();
      const { kernel, codesOffset: codes, codeStride: stride, queryI16Offset: q } = this;
      const scales = this.scalesOffset();
      if (loaded < this.rows) {
        const source = this.codeSource as CodeSource;
        const window = rowListOffset + this.capacity * 4;
        const scan = { kernel, source, rows: this.rows, loaded, stride, query: q, codes, scales, window };
        blockOffset = scanThroughWindow({ ...scan, scores: scoresOffset, rowList: rowListOffset }, rows);
      } else if (rows) {
        const args = [q, codes, rowListOffset, rows.length, stride, scales, scoresOffset] as const;
        if (kernel.startDotsI8At) running = kernel.startDotsI8At(...args);
        else kernel.dotsI8At(...args);
      } else {
        const args = [q, codes, this.rows, stride, scales, scoresOffset] as const;
        if (kernel.startDotsI8) running = kernel.startDotsI8(...args);
        else kernel.dotsI8(...args);
      }
      pick = () => {
        // The kernel's buffer() joins the scan still running on its helpers.
        const approximate = new Float32Array(this.kernel.buffer(), scoresOffset, candidates);
        return Int32Array.from(
          topK(approximate, candidates, depth, (i) => this.rowPk[rowAt(i)] as number),
          rowAt,
        );
      };
    }
    let hits: VectorHit[] | undefined;
    const settle = (): VectorHit[] => {
      if (this.pendingSearch === settle) this.pendingSearch = undefined;
      hits ??= this.rescore(query, pick(), limit, blockOffset);
      return hits;
    };
    this.pendingSearch = settle;
    return {
      running,
      hits: settle,
      cancel: () => {
        if (this.pendingSearch !== settle) return;
        this.pendingSearch = undefined;
        this.kernel.join?.();
      },
    };
  }

  /** Finishes a begun search (see `startSearch`) before the index or its scratch memory changes. */
  private settleSearch(): void {
    this.pendingSearch?.();
  }

  /** Exact float scores of `picked` rows, copied into one block after the scratch areas; the best `limit`. */
  private rescore(query: Float32Array, picked: Int32Array, limit: number, blockOffset: number): VectorHit[] {
    const strideBytes = this.stride * 4;
    const outOffset = blockOffset + picked.length * strideBytes;
    this.kernel.reserve(outOffset + picked.length * 4);
    const memory = this.kernel.buffer();
    normaliseInto(query, this.dimension, new Float32Array(memory, 0, this.stride));
    for (let i = 0; i < picked.length; i++) {
      const row = picked[i] as number;
      const target = new Float32Array(memory, blockOffset + i * strideBytes, this.stride);
      const fileRow = this.rowFile[row] as number;
      if (fileRow >= 0 && this.stored) this.stored.read(fileRow, target.subarray(0, this.dimension));
      else target.set(this.resident.get(this.rowPk[row] as number) as Float32Array);
      target.fill(0, this.dimension);
    }
    this.kernel.dots(0, blockOffset, picked.length, strideBytes, outOffset);
    const scores = new Float32Array(memory, outOffset, picked.length);
    const pkOf = (i: number) => this.rowPk[picked[i] as number] as number;
    return topK(scores, picked.length, limit, pkOf).map((i) => ({ chunkPk: pkOf(i), score: scores[i] as number }));
  }

  /** The index's rows as a snapshot writes them: in row order, floats from the file or from memory. */
  image(): Omit<IndexImage, 'floats' | 'readCodes'> & {
    codes: Uint8Array;
    readFloats(row: number, into: Float32Array): void;
  } {
    this.settleSearch();
    this.settleCodes();
    const rows = this.rows;
    return {
      rows,
      pks: this.rowPk.slice(0, rows),
      docs: this.rowDoc.slice(0, rows),
      scales: new Float32Array(this.kernel.buffer(), this.scalesOffset(), rows).slice(),
      codes: new Uint8Array(this.kernel.buffer(), this.codesOffset, rows * this.codeStride),
      readFloats: (row, into) => {
        const fileRow = this.rowFile[row] as number;
        if (fileRow >= 0 && this.stored) this.stored.read(fileRow, into);
        else into.set(this.resident.get(this.rowPk[row] as number) as Float32Array);
      },
    };
  }

  /** After the index was written out in its current row order: read floats from that file, free the resident ones. */
  adopt(floats: StoredFloats): void {
    this.settleSearch();
    this.stored?.close();
    this.stored = floats;
    floats.preload();
    for (let row = 0; row < this.rows; row++) this.rowFile[row] = row;
    this.resident.clear();
  }

  /** Releases the snapshot file, if any, and the kernel's helper threads. */
  close(): void {
    this.settleSearch();
    this.loader?.close();
    this.loader = undefined;
    this.stored?.close();
    this.stored = undefined;
    this.kernel.close?.();
  }

  private writeQuery(query: Float32Array): void {
    const memory = this.kernel.buffer();
    const normalised = new Float32Array(memory, 0, this.stride);
    normaliseInto(query, this.dimension, normalised);
    quantizeInto(
      normalised,
      this.dimension,
      QUERY_LEVELS,
      new Int16Array(memory, this.queryI16Offset, this.codeStride),
    );
  }

  private scalesOffset(): number {
    return this.codesOffset + this.capacity * this.codeStride;
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacity) return;
    const capacity = Math.max(rows, this.capacity * 2, 1024);
    const oldScales = this.scalesOffset();
    // codes, then scales, scores and row list (4 bytes per row each)
    this.kernel.reserve(this.codesOffset + capacity * (this.codeStride + 12));
    const bytes = new Uint8Array(this.kernel.buffer());
    bytes.copyWithin(this.codesOffset + capacity * this.codeStride, oldScales, oldScales + this.rows * 4);
    const grow = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old.subarray(0, this.rows) as never);
      return next;
    };
    this.rowPk = grow(this.rowPk, (n) => new Float64Array(n));
    this.rowDoc = grow(this.rowDoc, (n) => new Float64Array(n));
    this.rowFile = grow(this.rowFile, (n) => new Int32Array(n));
    this.capacity = capacity;
  }
}

/** Writes `vector` / ‖vector‖ (zeros for a zero vector) into the first `dimension` entries of `target`. */
function normaliseInto(vector: Float32Array, dimension: number, target: Float32Array): void {
  let norm = 0;
  for (let d = 0; d < dimension; d++) norm += (vector[d] ?? 0) * (vector[d] ?? 0);
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let d = 0; d < dimension; d++) target[d] = (vector[d] ?? 0) * scale;
  target.fill(0, dimension);
}
