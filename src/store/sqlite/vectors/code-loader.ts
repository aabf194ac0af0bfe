import { Worker } from 'node:worker_threads';
import { ROW_COPY_SOURCE } from './row-copy-thread.ts';

/**
 * Copies an index's int8 codes from its snapshot file into the kernel's shared memory on a background thread, so a
 * new process's first query does not wait for them. On this kind of machine most of that copy's time is the first
 * touch of fresh memory (38 MB at 100k × 384: 0.4–0.5 s at load 12, against 27 ms to read the same bytes into
 * memory already touched), so until the copy is done, queries scan the rows not yet copied through a small window
 * they read from the file (see VectorIndex), and only the rows the thread has published are scanned in place.
 */
export interface CodeSource {
  path: string;
  /** The snapshot file's device and inode: the thread reads only the file the store opened. */
  dev: string;
  ino: string;
  /** Byte offset of row 0's codes in the file. */
  offset: number;
  /** Reads `count` rows of codes from row `first` into `into` (on the calling thread). */
  readRows(first: number, count: number, into: Uint8Array): void;
}

/** How long `finish` waits for the thread to stop before copying the rest itself. */
const FINISH_WAIT_MS = 10_000;
/** Rows the thread copies per step before it publishes them. */
const ROWS_PER_STEP = 4096;

export class CodeLoader {
  private readonly progress = new Int32Array(new SharedArrayBuffer(12));
  private worker: Worker | undefined;
  private loaded = 0;
  private complete = false;
  private announced = false;
  private ended = false;

  /**
   * Starts copying `rows` rows of `stride` bytes from `source` to `codesOffset` of the shared `memory`; `onDone` runs
   * on this thread once, when every row is in place (by the thread or by `finish`), never after `close`.
   */
  constructor(
    private readonly source: CodeSource,
    private readonly memory: SharedArrayBuffer,
    private readonly codesOffset: number,
    private readonly rows: number,
    private readonly stride: number,
    private readonly onDone: () => void,
  ) {
    try {
      // progress: [rows published, stop flag, finished].
      this.worker = new Worker(ROW_COPY_SOURCE, {
        eval: true,
        execArgv: [],
        workerData: {
          path: source.path,
          dev: source.dev,
          ino: source.ino,
          offset: source.offset,
          rows,
          rowBytes: stride,
          step: ROWS_PER_STEP,
          memory,
          memoryOffset: codesOffset,
          progress: this.progress.buffer,
          signalEnd: true,
        },
      });
    } catch {
      this.worker = undefined;
      Atomics.store(this.progress, 2, 1);
      this.finish();
      return;
    }
    this.worker.unref();
    this.worker.on('error', () => undefined);
    this.worker.on('exit', () => {
      Atomics.store(this.progress, 2, 1);
      if (!this.ended && Atomics.load(this.progress, 0) >= this.rows) this.announce();
    });
  }

  /** Rows from 0 whose codes are in memory. */
  loadedRows(): number {
    if (!this.complete) {
      this.loaded = Atomics.load(this.progress, 0);
      if (this.loaded >= this.rows) this.complete = true;
    }
    return this.complete ? this.rows : this.loaded;
  }

  /** Ends the thread and copies whatever it left on this thread, so every row is in memory (before any write). */
  finish(): void {
    if (this.complete) return;
    Atomics.store(this.progress, 1, 1);
    if (this.worker) {
      // The thread stops after its current step (a few MB) and says so; one that failed to start never will, so the
      // wait is bounded (its 'exit' also marks it ended, for a later call).
      const until = performance.now() + FINISH_WAIT_MS;
      while (Atomics.load(this.progress, 2) === 0 && performance.now() < until) Atomics.wait(this.progress, 2, 0, 50);
      void this.worker.terminate();
      this.worker = undefined;
    }
    const from = Atomics.load(this.progress, 0);
    if (from < this.rows) {
      this.source.readRows(
        from,
        this.rows - from,
        new Uint8Array(this.memory, this.codesOffset + from * this.stride, (this.rows - from) * this.stride),
      );
    }
    this.complete = true;
    this.announce();
  }

  private announce(): void {
    if (this.announced || this.ended) return;
    this.announced = true;
    this.onDone();
  }

  close(): void {
    this.ended = true;
    Atomics.store(this.progress, 1, 1);
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
