import type { DotKernel } from './dot-kernel.ts';
import { topK } from './top-k.ts';

/** Floats per row: the dimension rounded up to 16, the kernel's unrolled step. */
const strideFor = (dimension: number): number => Math.ceil(dimension / 16) * 16;

export interface VectorHit {
  chunkPk: number;
  /** Cosine similarity: stored rows and the query are normalised. */
  score: number;
}

/**
 * Every vector of the store as one normalised, zero-padded float32 matrix in the kernel's memory, so a query is a
 * single sequential scan (memory-bandwidth bound) instead of sqlite-vec's per-chunk reads.
 *
 * Memory layout (bytes): [query: stride×4][matrix: capacity×stride×4][scores: capacity×4][row list: capacity×4].
 * The matrix keeps its offset when capacity grows; the two scratch areas after it simply move.
 * Rows are removed by moving the last row into the hole, so row numbers are only stable between writes.
 */
export class VectorIndex {
  readonly stride: number;
  private readonly strideBytes: number;
  private readonly matrixOffset: number;
  private capacity = 0;
  private rows = 0;
  private rowPk = new Float64Array(0);
  private rowDoc = new Float64Array(0);
  private readonly rowOfPk = new Map<number, number>();

  constructor(
    private readonly kernel: DotKernel,
    readonly dimension: number,
  ) {
    this.stride = strideFor(dimension);
    this.strideBytes = this.stride * 4;
    this.matrixOffset = this.strideBytes;
    this.ensureCapacity(1024);
  }

  get size(): number {
    return this.rows;
  }

  get kernelKind(): DotKernel['kind'] {
    return this.kernel.kind;
  }

  /** Adds or overwrites the vector of a chunk. */
  upsert(chunkPk: number, docPk: number, vector: Float32Array): void {
    let row = this.rowOfPk.get(chunkPk);
    if (row === undefined) {
      this.ensureCapacity(this.rows + 1);
      row = this.rows;
      this.rows++;
      this.rowOfPk.set(chunkPk, row);
    }
    this.rowPk[row] = chunkPk;
    this.rowDoc[row] = docPk;
    this.writeNormalised(this.matrixOffset + row * this.strideBytes, vector);
  }

  remove(chunkPk: number): void {
    const row = this.rowOfPk.get(chunkPk);
    if (row === undefined) return;
    this.rowOfPk.delete(chunkPk);
    const last = this.rows - 1;
    if (row !== last) {
      const bytes = new Uint8Array(this.kernel.buffer());
      const from = this.matrixOffset + last * this.strideBytes;
      bytes.copyWithin(this.matrixOffset + row * this.strideBytes, from, from + this.strideBytes);
      const movedPk = this.rowPk[last] as number;
      this.rowPk[row] = movedPk;
      this.rowDoc[row] = this.rowDoc[last] as number;
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
   * The `limit` rows most similar to `query`. With `rows`, only those rows are scored, so a principal's filter
   * applies before ranking rather than after.
   */
  search(query: Float32Array, limit: number, rows?: Int32Array): VectorHit[] {
    const candidates = rows ? rows.length : this.rows;
    if (candidates === 0 || limit <= 0) return [];
    const scoresOffset = this.matrixOffset + this.capacity * this.strideBytes;
    const rowListOffset = scoresOffset + this.capacity * 4;
    this.writeNormalised(0, query);
    if (rows) {
      new Int32Array(this.kernel.buffer(), rowListOffset, rows.length).set(rows);
      this.kernel.dotsAt(0, this.matrixOffset, rowListOffset, rows.length, this.strideBytes, scoresOffset);
    } else {
      this.kernel.dots(0, this.matrixOffset, this.rows, this.strideBytes, scoresOffset);
    }
    const scores = new Float32Array(this.kernel.buffer(), scoresOffset, candidates);
    const rowAt = rows ? (i: number) => rows[i] as number : (i: number) => i;
    return topK(scores, candidates, limit, (i) => this.rowPk[rowAt(i)] as number).map((i) => ({
      chunkPk: this.rowPk[rowAt(i)] as number,
      score: scores[i] as number,
    }));
  }

  private writeNormalised(offset: number, vector: Float32Array): void {
    const target = new Float32Array(this.kernel.buffer(), offset, this.stride);
    let norm = 0;
    for (let d = 0; d < this.dimension; d++) norm += (vector[d] ?? 0) * (vector[d] ?? 0);
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < this.dimension; d++) target[d] = (vector[d] ?? 0) * scale;
    target.fill(0, this.dimension);
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacity) return;
    const capacity = Math.max(rows, this.capacity * 2, 1024);
    // matrix, then scores and row list (4 bytes per row each)
    this.kernel.reserve(this.matrixOffset + capacity * (this.strideBytes + 8));
    const rowPk = new Float64Array(capacity);
    rowPk.set(this.rowPk.subarray(0, this.rows));
    const rowDoc = new Float64Array(capacity);
    rowDoc.set(this.rowDoc.subarray(0, this.rows));
    this.rowPk = rowPk;
    this.rowDoc = rowDoc;
    this.capacity = capacity;
  }
}
