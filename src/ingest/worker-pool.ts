import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** A worker that never came up (its script or the TypeScript loader is missing, as in a bundled build). */
export class WorkerStartError extends Error {}

/** A worker that died while it held a task (an uncaught error, running out of memory). */
export class WorkerCrashError extends Error {}

export interface WorkerPoolOptions {
  /** The worker's entry module; it posts `{ ready: true }` once loaded, then answers `{ id, task }` with `{ id, result }`. */
  entry: URL;
  size: number;
  workerData: unknown;
  /** Workers are ended after this long without a task, so an idle process holds no threads. */
  idleMs: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Ended on purpose (idle, closed) or already failed: its exit is no news. */
  ended: boolean;
  /** Tasks sent and not answered: id → settle. */
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
}

/**
 * A fixed-size pool of worker threads, started on first use, each task sent to the least busy worker. Workers do
 * not keep the process alive while idle, and end after `idleMs` without work. A worker that fails before it is
 * ready marks the pool unusable (`usable` false; its tasks fail with WorkerStartError, so the caller runs them
 * itself); one that dies later fails only the tasks it held, and is replaced on the next task.
 */
export class WorkerPool<Task, Result> {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private broken = false;
  /** Runs that use the pool: while any is on, idle workers wait for it rather than end (its writes may take long). */
  private holders = 0;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Whether the entry script exists where this module is (it does not inside a single-file bundle). */
  static entryExists(entry: URL): boolean {
    return entry.protocol === 'file:' && existsSync(fileURLToPath(entry));
  }

  get size(): number {
    return this.options.size;
  }

  get usable(): boolean {
    return !this.broken && this.options.size > 0;
  }

  get running(): boolean {
    return this.slots.length > 0;
  }

  /** Keeps the workers up until the returned release is called (a run of many documents). */
  hold(): () => void {
    this.holders++;
    this.clearIdle();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      this.idleIfUnused();
    };
  }

  run(task: Task): Promise<Result> {
    if (!this.usable) return Promise.reject(new WorkerStartError('the worker pool is not usable'));
    this.clearIdle();
    const slot = this.pick();
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (slot.pending.size === 1) slot.worker.ref();
      slot.worker.postMessage({ id, task });
    });
  }

  async close(): Promise<void> {
    this.clearIdle();
    const slots = this.slots.splice(0);
    for (const slot of slots) slot.ended = true;
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private pick(): Slot {
    while (this.slots.length < this.options.size) this.slots.push(this.spawn());
    let best = this.slots[0] as Slot;
    for (const slot of this.slots) if (slot.pending.size < best.pending.size) best = slot;
    return best;
  }

  private spawn(): Slot {
    // No inherited loader flags: the entry registers the TypeScript loader itself, whatever started this process.
    const worker = new Worker(this.options.entry, { workerData: this.options.workerData, execArgv: [] });
    const slot: Slot = { worker, ready: false, ended: false, pending: new Map() };
    worker.unref();
    worker.on('message', (message: { ready?: true; id?: number; result?: unknown }) => {
      if (message.ready) {
        slot.ready = true;
        return;
      }
      const settle = slot.pending.get(message.id as number);
      if (!settle) return;
      slot.pending.delete(message.id as number);
      settle.resolve(message.result);
      this.afterTask(slot);
    });
    const fail = (error: Error) => {
      if (slot.ended) return;
      slot.ended = true;
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      if (!slot.ready) this.broken = true;
      const reason = slot.ready
        ? new WorkerCrashError(`an ingest worker died: ${error.message}`)
        : new WorkerStartError(`an ingest worker could not start: ${error.message}`);
      for (const { reject } of slot.pending.values()) reject(reason);
      slot.pending.clear();
      void worker.terminate();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (slot.pending.size > 0 || !slot.ready) fail(new Error(`exit code ${code}`));
    });
    return slot;
  }

  private afterTask(slot: Slot): void {
    if (slot.pending.size === 0) slot.worker.unref();
    this.idleIfUnused();
  }

  private idleIfUnused(): void {
    if (this.holders > 0 || this.idleTimer || !this.slots.every((s) => s.pending.size === 0)) return;
    this.idleTimer = setTimeout(() => void this.close(), this.options.idleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
