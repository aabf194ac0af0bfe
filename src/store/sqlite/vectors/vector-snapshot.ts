import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { IndexImage, StoredFloats, VectorIndex } from './vector-index.ts';
import { ROW_COPY_SOURCE } from './row-copy-thread.ts';

/**
 * The vector index as one file beside the store (`.<store>.vectors`), so a new process loads it with a few reads
 * instead of decoding every vec0 row: the int8 codes are read straight into the kernel's memory and the normalised
 * float rows stay in the file, read back for the candidates being rescored until a background thread has copied
 * them into memory.
 *
 * Layout (little-endian): a 64-byte header — magic, version, dimension, code stride, rows, generation, token — then
 * chunk pks (f64 × rows), document pks (f64 × rows), scales (f32 × rows), codes (rows × code stride bytes) and floats
 * (rows × dimension f32). A snapshot is valid only for the store generation it names, and only if its token is the
 * one the store recorded when the file was renamed into place (see VectorCache), so a stale or foreign file is
 * never read as current.
 */
const MAGIC = 0x51565645; // "EVVQ"
const VERSION = 1;
const HEADER_BYTES = 64;
const TOKEN_BYTES = 16;

export interface SnapshotHeader {
  dimension: number;
  codeStride: number;
  rows: number;
  generation: number;
  token: string;
}

const sections = (rows: number, codeStride: number) => {
  const pks = HEADER_BYTES;
  const docs = pks + rows * 8;
  const scales = docs + rows * 8;
  const codes = scales + rows * 4;
  const floats = codes + rows * codeStride;
  return { pks, docs, scales, codes, floats };
};

/** Reads `into.byteLength` bytes at `position`, looping over short reads; false at end of file. */
function readFully(fd: number, into: Uint8Array, position: number): boolean {
  let done = 0;
  while (done < into.byteLength) {
    const read = readSync(fd, into, done, into.byteLength - done, position + done);
    if (read === 0) return false;
    done += read;
  }
  return true;
}

function writeFully(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done, position + done);
}

/** Float rows the preloading thread reads per step before it publishes them. */
const PRELOAD_ROWS_PER_STEP = 8192;

/**
 * Float rows of an open snapshot file. Rescoring reads single rows with positioned reads until a background thread
 * has copied them into a shared buffer; from then on rows are copied from memory (a pread costs several
 * microseconds, a copy well under one, and a query rescores hundreds of rows). The copy runs off the main thread, so
 * neither the first queries nor the event loop wait for it, however large the float section (2 GB at 1M × 512).
 */
class FileFloats implements StoredFloats {
  private memory: Float32Array | undefined;
  /** [rows published by the preloading thread, stop flag]. */
  private progress: Int32Array | undefined;
  private loadedRows = 0;
  private worker: Worker | undefined;

  constructor(
    private fd: number | undefined,
    private readonly path: string,
    private readonly offset: number,
    private readonly dimension: number,
    private readonly rows: number,
    /** The float section, when the caller already holds it (the writer of the file). */
    loaded?: Float32Array,
  ) {
    if (loaded) {
      this.memory = loaded;
      this.loadedRows = rows;
    }
  }

  read(fileRow: number, into: Float32Array): void {
    if (fileRow >= this.loadedRows && this.progress) this.loadedRows = Atomics.load(this.progress, 0);
    if (this.memory && fileRow < this.loadedRows) {
      into.set(this.memory.subarray(fileRow * this.dimension, (fileRow + 1) * this.dimension));
      return;
    }
    if (this.fd === undefined) throw new Error('the vector snapshot file is closed');
    const rowBytes = this.dimension * 4;
    const bytes = new Uint8Array(into.buffer, into.byteOffset, rowBytes);
    if (!readFully(this.fd, bytes, this.offset + fileRow * rowBytes))
      throw new Error('the vector snapshot file is truncated');
  }

  /** Reads `into.byteLength` bytes of the file at `position` (false at end of file); throws once the file is closed. */
  readRange(into: Uint8Array, position: number): boolean {
    if (this.fd === undefined) throw new Error('the vector snapshot file is closed');
    return readFully(this.fd, into, position);
  }

  /** Starts the thread that copies the float rows into memory (once; nothing to do for the writer's own rows). */
  preload(): void {
    if (this.memory || this.fd === undefined || this.rows === 0) return;
    const stat = fstatSync(this.fd, { bigint: true });
    const floats = new SharedArrayBuffer(this.rows * this.dimension * 4);
    const progress = new SharedArrayBuffer(8);
    try {
      this.worker = new Worker(ROW_COPY_SOURCE, {
        eval: true,
        execArgv: [],
        workerData: {
          path: this.path,
          dev: String(stat.dev),
          ino: String(stat.ino),
          offset: this.offset,
          rows: this.rows,
          rowBytes: this.dimension * 4,
          step: PRELOAD_ROWS_PER_STEP,
          memory: floats,
          memoryOffset: 0,
          progress,
          signalEnd: false,
        },
      });
    } catch {
      return; // no thread: rows keep coming from the file
    }
    this.worker.unref();
    this.worker.on('error', () => undefined);
    this.memory = new Float32Array(floats);
    this.progress = new Int32Array(progress);
  }

  /** Whether every row is in memory. */
  get resident(): boolean {
    if (this.progress) this.loadedRows = Atomics.load(this.progress, 0);
    return this.loadedRows >= this.rows;
  }

  close(): void {
    if (this.progress) Atomics.store(this.progress, 1, 1);
    void this.worker?.terminate();
    this.worker = undefined;
    this.progress = undefined;
    this.memory = undefined;
    this.loadedRows = 0;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Opens a snapshot and checks it against what the store expects; the image's float rows keep the file open. Returns
 * undefined for a missing, truncated or mismatching file.
 */
export function openSnapshot(
  path: string,
  expect: { dimension: number; generation: number; token: string },
): IndexImage | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const header = readHeader(fd);
    if (
      !header ||
      header.dimension !== expect.dimension ||
      header.generation !== expect.generation ||
      header.token !== expect.token
    ) {
      closeSync(fd);
      return undefined;
    }
    const { rows, codeStride, dimension } = header;
    const at = sections(rows, codeStride);
    const meta = new Uint8Array(at.codes - at.pks);
    if (!readFully(fd, meta, at.pks)) {
      closeSync(fd);
      return undefined;
    }
    const copy = (offset: number, bytes: number) => meta.slice(offset - at.pks, offset - at.pks + bytes).buffer;
    const stat = fstatSync(fd, { bigint: true });
    const floats = new FileFloats(fd, path, at.floats, dimension, rows);
    return {
      rows,
      pks: new Float64Array(copy(at.pks, rows * 8)),
      docs: new Float64Array(copy(at.docs, rows * 8)),
      scales: new Float32Array(copy(at.scales, rows * 4)),
      readCodes: (into) => {
        if (!readFully(fd, into, at.codes)) throw new Error('the vector snapshot file is truncated');
      },
      codeSource: {
        path,
        dev: String(stat.dev),
        ino: String(stat.ino),
        offset: at.codes,
        readRows: (first, count, into) => {
          const bytes = into.subarray(0, count * codeStride);
          if (!floats.readRange(bytes, at.codes + first * codeStride))
            throw new Error('the vector snapshot file is truncated');
        },
      },
      floats,
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function readHeader(fd: number): SnapshotHeader | undefined {
  const bytes = new Uint8Array(HEADER_BYTES);
  if (!readFully(fd, bytes, 0)) return undefined;
  const view = new DataView(bytes.buffer);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VERSION) return undefined;
  return {
    dimension: view.getUint32(8, true),
    codeStride: view.getUint32(12, true),
    rows: view.getUint32(16, true),
    generation: view.getFloat64(24, true),
    token: Buffer.from(bytes.subarray(32, 32 + TOKEN_BYTES)).toString('hex'),
  };
}

/** Writes `index` as a snapshot at `path` (a new file); returns the float rows of the written file, open for reads. */
export function writeSnapshot(
  path: string,
  index: VectorIndex,
  header: { generation: number; token: string },
): StoredFloats {
  const image = index.image();
  const { rows } = image;
  const { dimension, codeStride } = index;
  const at = sections(rows, codeStride);
  const fd = openSync(path, 'wx+');
  try {
    const head = new Uint8Array(at.codes);
    const view = new DataView(head.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, VERSION, true);
    view.setUint32(8, dimension, true);
    view.setUint32(12, codeStride, true);
    view.setUint32(16, rows, true);
    view.setFloat64(24, header.generation, true);
    head.set(Buffer.from(header.token, 'hex').subarray(0, TOKEN_BYTES), 32);
    head.set(new Uint8Array(image.pks.buffer, image.pks.byteOffset, rows * 8), at.pks);
    head.set(new Uint8Array(image.docs.buffer, image.docs.byteOffset, rows * 8), at.docs);
    head.set(new Uint8Array(image.scales.buffer, image.scales.byteOffset, rows * 4), at.scales);
    writeFully(fd, head, 0);
    writeFully(fd, image.codes, at.codes);
    // The float section is gathered in memory once: written out, then kept as the new file's preloaded rows.
    const floats = new Float32Array(rows * dimension);
    for (let row = 0; row < rows; row++) image.readFloats(row, floats.subarray(row * dimension, (row + 1) * dimension));
    writeFully(fd, new Uint8Array(floats.buffer), at.floats);
    return new FileFloats(fd, path, at.floats, dimension, rows, floats);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
