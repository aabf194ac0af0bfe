import { WASM_DOT_KERNEL_BYTES } from './wasm-dot-kernel.ts';

const PAGE = 65_536;

/**
 * Dot products of one query against many rows, all living in one linear memory the kernel owns.
 * Offsets and strides are in bytes; strides are multiples of 64 (rows zero-padded).
 */
export interface DotKernel {
  readonly kind: 'wasm-simd' | 'js';
  /** The current backing memory. Views over it must be re-created after `reserve` grows it. */
  buffer(): ArrayBuffer;
  /** Ensures the memory holds at least `bytes` bytes, keeping its contents. */
  reserve(bytes: number): void;
  dots(q: number, m: number, n: number, strideBytes: number, out: number): void;
  dotsAt(q: number, m: number, idx: number, n: number, strideBytes: number, out: number): void;
  /**
   * Scalar-quantized rows: q is int16 (strideBytes entries), rows int8 (strideBytes bytes, a multiple of 32);
   * out[i] = scales[row] · Σ q·row as float32, scales float32 per row of the matrix.
   */
  dotsI8(q: number, m: number, n: number, strideBytes: number, scales: number, out: number): void;
  dotsI8At(q: number, m: number, idx: number, n: number, strideBytes: number, scales: number, out: number): void;
  /**
   * `dotsI8` / `dotsI8At` started on helper threads (vector-scan-threads.ts): the call returns once the scan is
   * posted (true), and the scores are complete after `join()` or the kernel's next call of any kind (which joins
   * first); a scan too short to split runs at once (false). Absent on a kernel without helpers.
   */
  startDotsI8?(q: number, m: number, n: number, strideBytes: number, scales: number, out: number): boolean;
  startDotsI8At?(
    q: number,
    m: number,
    idx: number,
    n: number,
    strideBytes: number,
    scales: number,
    out: number,
  ): boolean;
  /** Finishes a started scan on this thread (a no-op when none is running). */
  join?(): void;
  /** Ends any helper threads the kernel started (see vector-scan-threads.ts). */
  close?(): void;
}

/** The slice of the WebAssembly JS API used here (the project's `lib` has no DOM typings, where it is declared). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer; grow(pages: number): number };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: unknown };
}

interface WasmExports {
  dots(q: number, m: number, n: number, stride: number, out: number): void;
  dotsAt(q: number, m: number, idx: number, n: number, stride: number, out: number): void;
  dotsI8(q: number, m: number, n: number, stride: number, scales: number, out: number): void;
  dotsI8At(q: number, m: number, idx: number, n: number, stride: number, scales: number, out: number): void;
}

/** The SIMD kernel, or undefined where WebAssembly SIMD is unavailable. */
export function createWasmDotKernel(): DotKernel | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm || !wasm.validate(WASM_DOT_KERNEL_BYTES)) return undefined;
  const memory = new wasm.Memory({ initial: 1 });
  const instance = new wasm.Instance(new wasm.Module(WASM_DOT_KERNEL_BYTES), { env: { memory } });
  const fns = instance.exports as unknown as WasmExports;
  return {
    kind: 'wasm-simd',
    buffer: () => memory.buffer,
    reserve(bytes) {
      const have = memory.buffer.byteLength;
      if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
    },
    dots: (q, m, n, stride, out) => fns.dots(q, m, n, stride, out),
    dotsAt: (q, m, idx, n, stride, out) => fns.dotsAt(q, m, idx, n, stride, out),
    dotsI8: (q, m, n, stride, scales, out) => fns.dotsI8(q, m, n, stride, scales, out),
    dotsI8At: (q, m, idx, n, stride, scales, out) => fns.dotsI8At(q, m, idx, n, stride, scales, out),
  };
}

/** Plain-JS kernel with the same memory contract: the fallback, and the reference the WASM kernel is tested against. */
export function createJsDotKernel(): DotKernel {
  let memory = new ArrayBuffer(PAGE);
  let f32 = new Float32Array(memory);
  let i32 = new Int32Array(memory);
  let i16 = new Int16Array(memory);
  let i8 = new Int8Array(memory);
  const dotI8 = (q: number, row: number, dims: number): number => {
    let sum = 0;
    for (let d = 0; d < dims; d++) sum += (i16[(q >> 1) + d] as number) * (i8[row + d] as number);
    return sum;
  };
  const dot = (q: number, row: number, dims: number): number => {
    let sum = 0;
    for (let d = 0; d < dims; d++) sum += (f32[q + d] as number) * (f32[row + d] as number);
    return sum;
  };
  return {
    kind: 'js',
    buffer: () => memory,
    reserve(bytes) {
      if (bytes <= memory.byteLength) return;
      const next = new ArrayBuffer(Math.ceil(bytes / PAGE) * PAGE);
      new Uint8Array(next).set(new Uint8Array(memory));
      memory = next;
      f32 = new Float32Array(memory);
      i32 = new Int32Array(memory);
      i16 = new Int16Array(memory);
      i8 = new Int8Array(memory);
    },
    dots(q, m, n, stride, out) {
      const dims = stride >> 2;
      for (let i = 0; i < n; i++) f32[(out >> 2) + i] = dot(q >> 2, (m + i * stride) >> 2, dims);
    },
    dotsAt(q, m, idx, n, stride, out) {
      const dims = stride >> 2;
      for (let i = 0; i < n; i++) {
        const row = i32[(idx >> 2) + i] as number;
        f32[(out >> 2) + i] = dot(q >> 2, (m + row * stride) >> 2, dims);
      }
    },
    dotsI8(q, m, n, stride, scales, out) {
      for (let i = 0; i < n; i++)
        f32[(out >> 2) + i] = Math.fround(dotI8(q, m + i * stride, stride) * (f32[(scales >> 2) + i] as number));
    },
    dotsI8At(q, m, idx, n, stride, scales, out) {
      for (let i = 0; i < n; i++) {
        const row = i32[(idx >> 2) + i] as number;
        f32[(out >> 2) + i] = Math.fround(dotI8(q, m + row * stride, stride) * (f32[(scales >> 2) + row] as number));
      }
    },
  };
}

/** The fastest kernel this runtime supports. */
export const createDotKernel = (): DotKernel => createWasmDotKernel() ?? createJsDotKernel();
