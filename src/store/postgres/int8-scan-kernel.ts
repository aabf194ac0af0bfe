/**
 * The int8 scan of the PostgreSQL store's in-process vector codes (vector-codes.ts): the int32 dot products of one
 * int16 query with n int8 rows laid out one after the other, `stride` bytes each (a multiple of 8, rows zero-padded).
 *
 *   dots(q, m, n, stride, out)    out[i] = Σ_d q[d] · m[i·stride + d]   (int32)
 *
 * A hand-assembled WebAssembly SIMD function: eight row bytes are sign-extended by one load (`v128.load8x8_s`) and
 * multiplied with eight query lanes by one `i32x4.dot_i16x8_s`. Where WebAssembly SIMD is missing, a plain loop
 * computes the same integers. The binary encoding is the one SQLite's kernel is assembled with (`src/store/wasm-encoding.ts`).
 */

import {
  BLOCK,
  BR,
  BR_IF,
  END,
  get,
  I32,
  I32_ADD,
  I32_GE_U,
  I32_SHL,
  I32X4_ADD,
  I32X4_DOT_I16X8_S,
  I32X4_EXTRACT_LANE,
  i32,
  LOOP,
  name,
  section,
  set,
  uleb,
  V128,
  V128_CONST,
  V128_LOAD,
  V128_LOAD8X8_S,
  vec,
  VOID,
} from '../wasm-encoding.ts';

const PAGE = 65_536;
const I32_STORE = 0x36;

// Parameters 0–4: q, m, n, stride, out. Locals: i (5), j (6), row (7), acc0 (8), acc1 (9).
const [Q, M, N, STRIDE, OUT, I, J, ROW, ACC0, ACC1] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const ZERO = [...V128_CONST, ...new Array<number>(16).fill(0)];
/** acc += dot(q[j + offset/… ] as int16 × row[j + offset] sign-extended): 8 row bytes against 16 query bytes. */
const madd = (acc: number, offset: number): number[] => [
  ...get(acc),
  ...get(Q),
  ...get(J),
  ...i32(1),
  I32_SHL,
  I32_ADD,
  ...V128_LOAD,
  0x04,
  ...uleb(offset * 2),
  ...get(ROW),
  ...get(J),
  I32_ADD,
  ...V128_LOAD8X8_S,
  0x03,
  ...uleb(offset),
  ...I32X4_DOT_I16X8_S,
  ...I32X4_ADD,
  ...set(acc),
];
const lane = (l: number): number[] => [...get(ACC0), ...I32X4_EXTRACT_LANE, l];
const BODY = [
  ...i32(0),
  ...set(I),
  ...get(M),
  ...set(ROW),
  BLOCK,
  VOID,
  LOOP,
  VOID,
  ...get(I),
  ...get(N),
  I32_GE_U,
  BR_IF,
  1,
  ...ZERO,
  ...set(ACC0),
  ...ZERO,
  ...set(ACC1),
  ...i32(0),
  ...set(J),
  BLOCK,
  VOID,
  LOOP,
  VOID,
  ...get(J),
  ...get(STRIDE),
  I32_GE_U,
  BR_IF,
  1,
  ...madd(ACC0, 0),
  ...get(J),
  ...i32(8),
  I32_ADD,
  ...set(J),
  ...get(J),
  ...get(STRIDE),
  I32_GE_U,
  BR_IF,
  1,
  ...madd(ACC1, 0),
  ...get(J),
  ...i32(8),
  I32_ADD,
  ...set(J),
  BR,
  0,
  END,
  END,
  ...get(ACC0),
  ...get(ACC1),
  ...I32X4_ADD,
  ...set(ACC0),
  // out[i] = the four lanes' sum
  ...get(OUT),
  ...get(I),
  ...i32(2),
  I32_SHL,
  I32_ADD,
  ...lane(0),
  ...lane(1),
  I32_ADD,
  ...lane(2),
  I32_ADD,
  ...lane(3),
  I32_ADD,
  I32_STORE,
  0x02,
  0,
  ...get(ROW),
  ...get(STRIDE),
  I32_ADD,
  ...set(ROW),
  ...get(I),
  ...i32(1),
  I32_ADD,
  ...set(I),
  BR,
  0,
  END,
  END,
  END,
];
const FUNCTION = (() => {
  const body = [
    ...vec([
      [...uleb(3), I32],
      [...uleb(2), V128],
    ]),
    ...BODY,
  ];
  return [...uleb(body.length), ...body];
})();
const MODULE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([])]])),
  ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)]])),
  ...section(3, vec([uleb(0)])),
  ...section(7, vec([[...name('dots'), 0x00, ...uleb(0)]])),
  ...section(10, vec([FUNCTION])),
]);

export interface Int8ScanKernel {
  readonly kind: 'wasm-simd' | 'js';
  /** The current memory; views over it must be made again after `reserve` grew it. */
  buffer(): ArrayBuffer;
  /** Makes the memory at least `bytes` long, keeping its contents. */
  reserve(bytes: number): void;
  /** Byte offsets: q (int16 × stride), m (n rows of stride int8), out (n int32). */
  dots(q: number, m: number, n: number, stride: number, out: number): void;
}

interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer; grow(pages: number): number };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: unknown };
}

/** The SIMD kernel where WebAssembly SIMD validates, the plain loop otherwise (or when `forceJs`). */
export function createInt8ScanKernel(forceJs = false): Int8ScanKernel {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!forceJs && wasm?.validate(MODULE)) {
    const memory = new wasm.Memory({ initial: 1 });
    const instance = new wasm.Instance(new wasm.Module(MODULE), { env: { memory } });
    const dots = (instance.exports as { dots(q: number, m: number, n: number, s: number, o: number): void }).dots;
    return {
      kind: 'wasm-simd',
      buffer: () => memory.buffer,
      reserve(bytes) {
        const have = memory.buffer.byteLength;
        if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
      },
      dots,
    };
  }
  let memory = new ArrayBuffer(PAGE);
  return {
    kind: 'js',
    buffer: () => memory,
    reserve(bytes) {
      if (bytes <= memory.byteLength) return;
      const grown = new ArrayBuffer(Math.ceil(bytes / PAGE) * PAGE);
      new Uint8Array(grown).set(new Uint8Array(memory));
      memory = grown;
    },
    dots(q, m, n, stride, out) {
      const query = new Int16Array(memory, q, stride);
      const rows = new Int8Array(memory, m, n * stride);
      const sums = new Int32Array(memory, out, n);
      for (let i = 0; i < n; i++) {
        let sum = 0;
        const base = i * stride;
        for (let d = 0; d < stride; d++) sum += (query[d] as number) * (rows[base + d] as number);
        sums[i] = sum;
      }
    },
  };
}
