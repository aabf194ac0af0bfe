import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DotKernel } from './dot-kernel.ts';
import { WASM_DOT_KERNEL_SHARED_BYTES, SHARED_MEMORY_MAX_PAGES } from './wasm-dot-kernel.ts';

const PAGE = 65_536;
/** Below this many rows one thread scans alone: waking a helper costs more than it saves. */
const PARALLEL_MIN_ROWS = 32_768;
/** Rows per claimed block: small enough that the last block left to wait for is short, large enough to amortise a claim. */
const BLOCK_ROWS = 4096;
/**
 * Block numbers live in the low bits of the ticket, the job's sequence number in the rest; a job has fewer blocks
 * than the low bits can count, so the claim past the last block never carries into the sequence.
 */
const BLOCK_BITS = 11;
const BLOCK_MASK = (1 << BLOCK_BITS) - 1;
const MAX_BLOCKS = BLOCK_MASK;

// Control words (Int32 indices into the control buffer).
const WAKE = 0;
const TICKET = 1;
const DONE = 2;
const STOP = 3;
const PARAMS = 4; // kind, q, m, idx, n, stride, scales, out, blockRows
const CONTROL_WORDS = PARAMS + 9;

/**
 * A helper's loop (plain JS, evaluated, so it needs no loader): sleep until a job is posted, then claim blocks of it
 * until none is left. A claim is a compare-and-swap on the ticket (sequence | next block), so a helper that wakes
 * late, after its job ended, claims nothing of the next one with stale parameters.
 */
const HELPER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { memory, bytes, control } = workerData;
const c = new Int32Array(control);
const fns = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
const BITS = ${BLOCK_BITS}, MASK = (1 << BITS) - 1;
let wake = 0;
for (;;) {
  Atomics.wait(c, ${WAKE}, wake);
  if (Atomics.load(c, ${STOP}) !== 0) break;
  wake = Atomics.load(c, ${WAKE});
  let ticket = Atomics.load(c, ${TICKET});
  const seq = ticket >>> BITS;
  const [kind, q, m, idx, n, stride, scales, out, blockRows] = Array.from(c.subarray(${PARAMS}, ${PARAMS + 9}));
  const blocks = Math.ceil(n / blockRows);
  for (;;) {
    ticket = Atomics.load(c, ${TICKET});
    const block = ticket & MASK;
    if (ticket >>> BITS !== seq || block >= blocks) break;
    if (Atomics.compareExchange(c, ${TICKET}, ticket, ticket + 1) !== ticket) continue;
    const start = block * blockRows;
    const count = Math.min(blockRows, n - start);
    if (kind === 0) fns.dotsI8(q, m + start * stride, count, stride, scales + start * 4, out + start * 4);
    else fns.dotsI8At(q, m, idx + start * 4, count, stride, scales, out + start * 4);
    Atomics.add(c, ${DONE}, 1);
    Atomics.notify(c, ${DONE});
  }
}
`;

/** The slice of the WebAssembly JS API used here (the project's `lib` has no DOM typings, where it is declared). */
interface SharedMemory {
  readonly buffer: SharedArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => SharedMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: unknown };
}

interface KernelExports {
  dots(q: number, m: number, n: number, stride: number, out: number): void;
  dotsAt(q: number, m: number, idx: number, n: number, stride: number, out: number): void;
  dotsI8(q: number, m: number, n: number, stride: number, scales: number, out: number): void;
  dotsI8At(q: number, m: number, idx: number, n: number, stride: number, scales: number, out: number): void;
}

/** How many helper threads a scan may use besides the caller's: one fewer than the cores, at most three. */
export const scanHelpers = (): number => Math.max(0, Math.min(3, availableParallelism() - 1));

/**
 * The SIMD kernel over a shared memory whose int8 scans are split into blocks that the calling thread and
 * `helpers` worker threads claim from one counter: the caller never waits for a helper to start (it takes every
 * block itself if the helpers are busy or asleep), only for a block a helper has already claimed. Float scans and
 * short int8 scans run on the caller alone. `startDotsI8` / `startDotsI8At` post a scan to the helpers and return
 * at once, so the caller can do other work while they scan; the caller's next call of the kernel (or `join`) takes
 * the blocks still unclaimed and waits for the rest. The helpers start with the kernel and sleep between scans;
 * `close` ends them. Undefined where shared WebAssembly memory or SIMD is unavailable.
 */
export function createThreadedDotKernel(helpers = scanHelpers()): (DotKernel & { close(): void }) | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (
    helpers <= 0 ||
    !wasm ||
    typeof SharedArrayBuffer !== 'function' ||
    !wasm.validate(WASM_DOT_KERNEL_SHARED_BYTES)
  ) {
    return undefined;
  }
  let memory: SharedMemory;
  try {
    memory = new wasm.Memory({ initial: 1, maximum: SHARED_MEMORY_MAX_PAGES, shared: true });
  } catch {
    return undefined;
  }
  const fns = new wasm.Instance(new wasm.Module(WASM_DOT_KERNEL_SHARED_BYTES), { env: { memory } })
    .exports as unknown as KernelExports;
  const control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
  let workers: Worker[] | undefined;
  let seq = 0;

  const start = (): Worker[] => {
    Atomics.store(control, STOP, 0);
    workers = Array.from({ length: helpers }, () => {
      const worker = new Worker(HELPER_SOURCE, {
        eval: true,
        execArgv: [],
        workerData: { memory, bytes: WASM_DOT_KERNEL_SHARED_BYTES, control: control.buffer },
      });
      worker.unref();
      // A helper that dies leaves its blocks unclaimed, and the caller takes them.
      worker.on('error', () => undefined);
      return worker;
    });
    return workers;
  };

  // The helpers start with the kernel: a kernel this size is made to load an index for a query, and a helper takes
  // tens of milliseconds to boot, which the load's reads cover, so the first scan finds them awake.
  start();

  /** A scan posted to the helpers that this thread has not joined yet (see `post` and `join`). */
  let pending:
    | { blocks: number; blockRows: number; n: number; block: (start: number, count: number) => void }
    | undefined;

  /** Posts one int8 scan, split into blocks, to the helpers; `block(start, count)` scans rows [start, start + count) on this thread. */
  const post = (params: number[], n: number, block: (start: number, count: number) => void): void => {
    join();
    if (!workers) start();
    const blockRows = Math.max(BLOCK_ROWS, Math.ceil(n / MAX_BLOCKS));
    const blocks = Math.ceil(n / blockRows);
    seq = (seq + 1) & ((1 << (31 - BLOCK_BITS)) - 1);
    control.set([...params, blockRows], PARAMS);
    Atomics.store(control, DONE, 0);
    Atomics.store(control, TICKET, seq << BLOCK_BITS);
    Atomics.add(control, WAKE, 1);
    Atomics.notify(control, WAKE);
    pending = { blocks, blockRows, n, block };
  };

  /** Ends the posted scan: this thread claims the blocks no helper has, then waits for those a helper is scanning. */
  const join = (): void => {
    if (!pending) return;
    const { blocks, blockRows, n, block } = pending;
    pending = undefined;
    for (;;) {
      const ticket = Atomics.load(control, TICKET);
      const claimed = ticket & BLOCK_MASK;
      if (claimed >= blocks) break;
      if (Atomics.compareExchange(control, TICKET, ticket, ticket + 1) !== ticket) continue;
      block(claimed * blockRows, Math.min(blockRows, n - claimed * blockRows));
      Atomics.add(control, DONE, 1);
    }
    // Only blocks a helper claimed and is scanning remain: at most one per helper.
    for (let done = Atomics.load(control, DONE); done < blocks; done = Atomics.load(control, DONE)) {
      Atomics.wait(control, DONE, done, 5);
    }
  };

  const i8 = (q: number, m: number, n: number, stride: number, scales: number, out: number) =>
    post([0, q, m, 0, n, stride, scales, out], n, (first, count) =>
      fns.dotsI8(q, m + first * stride, count, stride, scales + first * 4, out + first * 4),
    );
  const i8At = (q: number, m: number, idx: number, n: number, stride: number, scales: number, out: number) =>
    post([1, q, m, idx, n, stride, scales, out], n, (first, count) =>
      fns.dotsI8At(q, m, idx + first * 4, count, stride, scales, out + first * 4),
    );

  // Every other call joins a posted scan first: its scores and anything else in the memory are then as a
  // synchronous scan would have left them, whatever the caller does between posting and reading.
  return {
    kind: 'wasm-simd',
    buffer: () => {
      join();
      return memory.buffer as unknown as ArrayBuffer;
    },
    reserve(bytes) {
      join();
      const have = memory.buffer.byteLength;
      if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
    },
    dots(q, m, n, stride, out) {
      join();
      fns.dots(q, m, n, stride, out);
    },
    dotsAt(q, m, idx, n, stride, out) {
      join();
      fns.dotsAt(q, m, idx, n, stride, out);
    },
    dotsI8(q, m, n, stride, scales, out) {
      join();
      if (n < PARALLEL_MIN_ROWS) return fns.dotsI8(q, m, n, stride, scales, out);
      i8(q, m, n, stride, scales, out);
      join();
    },
    dotsI8At(q, m, idx, n, stride, scales, out) {
      join();
      if (n < PARALLEL_MIN_ROWS) return fns.dotsI8At(q, m, idx, n, stride, scales, out);
      i8At(q, m, idx, n, stride, scales, out);
      join();
    },
    startDotsI8(q, m, n, stride, scales, out) {
      join();
      if (n < PARALLEL_MIN_ROWS) {
        fns.dotsI8(q, m, n, stride, scales, out);
        return false;
      }
      i8(q, m, n, stride, scales, out);
      return true;
    },
    startDotsI8At(q, m, idx, n, stride, scales, out) {
      join();
      if (n < PARALLEL_MIN_ROWS) {
        fns.dotsI8At(q, m, idx, n, stride, scales, out);
        return false;
      }
      i8At(q, m, idx, n, stride, scales, out);
      return true;
    },
    join,
    close() {
      join();
      Atomics.store(control, STOP, 1);
      Atomics.add(control, WAKE, 1);
      Atomics.notify(control, WAKE);
      for (const worker of workers ?? []) void worker.terminate();
      workers = undefined;
    },
  };
}
