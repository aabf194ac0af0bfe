/**
 * A hand-assembled WebAssembly SIMD module with four exports over an imported memory:
 *
 *   dots(q, m, n, strideBytes, out)          out[i] = Σ q·row_i for rows m, m+stride, … (n rows)
 *   dotsAt(q, m, idx, n, strideBytes, out)   out[i] = Σ q·row_idx[i]
 *   dotsI8(q, m, n, strideBytes, scales, out)          out[i] = scales[i] · Σ q·row_i, q int16, rows int8
 *   dotsI8At(q, m, idx, n, strideBytes, scales, out)   out[i] = scales[idx[i]] · Σ q·row_idx[i]
 *
 * The int8 pair scans a scalar-quantized matrix (a quarter of the float bytes): the query is stored widened to
 * int16 so each 8 row bytes cost one sign-extending load (`v128.load8x8_s`) and one `i32x4.dot_i16x8_s`; the int8
 * stride must be a multiple of 32 (and at least 32).
 *
 * All arguments are byte offsets/counts. `strideBytes` must be a multiple of 64: each inner iteration
 * reads 16 floats into four independent f32x4 accumulators, so the loop is bound by memory bandwidth
 * rather than by the latency of one add chain (peers benchmark: ≈ 4.75 ms for 100k × 384).
 * Rows are zero-padded to the stride by the caller.
 */
import {
  BLOCK,
  BR,
  BR_IF,
  END,
  F32X4_ADD,
  F32X4_EXTRACT_LANE,
  F32X4_MUL,
  F32_ADD,
  F32_CONVERT_I32_S,
  F32_LOAD,
  F32_MUL,
  F32_STORE,
  I32,
  I32X4_ADD,
  I32X4_DOT_I16X8_S,
  I32X4_EXTRACT_LANE,
  I32_ADD,
  I32_GE_U,
  I32_LOAD,
  I32_LT_U,
  I32_MUL,
  I32_SHL,
  LOCAL_TEE,
  LOOP,
  SIMD,
  V128,
  V128_CONST,
  V128_LOAD,
  V128_LOAD8X8_S,
  VOID,
  functionBody,
  get,
  i32,
  name,
  section,
  set,
  uleb,
  vec,
} from '../../wasm-encoding.ts';

/**
 * Body shared by both functions: for each of n rows at address `rowAddress()` (which leaves the row's byte
 * address on the stack), accumulate the dot product with q and store it at out + 4i.
 */
function dotLoop(locals: {
  q: number;
  n: number;
  stride: number;
  out: number;
  i: number;
  j: number;
  row: number;
  acc: readonly [number, number, number, number];
  rowAddress: number[];
}): number[] {
  const { q, n, stride, out, i, j, row, acc } = locals;
  const zero = [...V128_CONST, ...new Array<number>(16).fill(0)];
  const madd = (accLocal: number, offset: number): number[] => [
    ...get(accLocal),
    ...get(q),
    ...get(j),
    I32_ADD,
    ...V128_LOAD,
    0x02,
    ...uleb(offset),
    ...get(row),
    ...get(j),
    I32_ADD,
    ...V128_LOAD,
    0x02,
    ...uleb(offset),
    ...F32X4_MUL,
    ...F32X4_ADD,
    ...set(accLocal),
  ];
  return [
    ...i32(0),
    ...set(i),
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...get(i),
    ...get(n),
    I32_GE_U,
    BR_IF,
    1,
    ...locals.rowAddress,
    ...set(row),
    ...acc.flatMap((a) => [...zero, ...set(a)]),
    ...i32(0),
    ...set(j),
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...get(j),
    ...get(stride),
    I32_GE_U,
    BR_IF,
    1,
    ...madd(acc[0], 0),
    ...madd(acc[1], 16),
    ...madd(acc[2], 32),
    ...madd(acc[3], 48),
    ...get(j),
    ...i32(64),
    I32_ADD,
    ...set(j),
    BR,
    0,
    END,
    END,
    // acc0 = acc0 + acc1 + acc2 + acc3, then the four lanes summed into out[i]
    ...get(acc[0]),
    ...get(acc[1]),
    ...F32X4_ADD,
    ...get(acc[2]),
    ...F32X4_ADD,
    ...get(acc[3]),
    ...F32X4_ADD,
    ...set(acc[0]),
    ...get(out),
    ...get(i),
    ...i32(2),
    I32_SHL,
    I32_ADD,
    ...get(acc[0]),
    ...F32X4_EXTRACT_LANE,
    0,
    ...get(acc[0]),
    ...F32X4_EXTRACT_LANE,
    1,
    F32_ADD,
    ...get(acc[0]),
    ...F32X4_EXTRACT_LANE,
    2,
    F32_ADD,
    ...get(acc[0]),
    ...F32X4_EXTRACT_LANE,
    3,
    F32_ADD,
    F32_STORE,
    0x02,
    0,
    ...get(i),
    ...i32(1),
    I32_ADD,
    ...set(i),
    BR,
    0,
    END,
    END,
    END,
  ];
}

/**
 * Body of the int8 pair: for each of n rows (index left on the stack by `rowIndex`), the int32 dot product of the
 * int16 query with the int8 row, converted to float and multiplied by the row's scale, stored at out + 4i. The row
 * bytes are read eight at a time, sign-extended by the load itself (`v128.load8x8_s`), so each 8 bytes cost a load,
 * one `i32x4.dot_i16x8_s` and an add; `row` walks the row up to its end (`j`) and `qq` walks the query alongside.
 */
function dotI8Loop(locals: {
  q: number;
  m: number;
  n: number;
  stride: number;
  scales: number;
  out: number;
  i: number;
  j: number;
  row: number;
  ri: number;
  qq: number;
  acc: readonly [number, number, number, number];
  rowIndex: number[];
}): number[] {
  const { q, m, n, stride, scales, out, i, j, row, ri, qq, acc } = locals;
  const zero = [...V128_CONST, ...new Array<number>(16).fill(0)];
  const madd = (accLocal: number, rowOffset: number, qOffset: number): number[] => [
    ...get(accLocal),
    ...get(row),
    ...V128_LOAD8X8_S,
    0x00,
    ...uleb(rowOffset),
    ...get(qq),
    ...V128_LOAD,
    0x01,
    ...uleb(qOffset),
    ...I32X4_DOT_I16X8_S,
    ...I32X4_ADD,
    ...set(accLocal),
  ];
  const lane = (index: number): number[] => [...get(acc[0]), ...I32X4_EXTRACT_LANE, index];
  return [
    ...i32(0),
    ...set(i),
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...get(i),
    ...get(n),
    I32_GE_U,
    BR_IF,
    1,
    ...locals.rowIndex,
    LOCAL_TEE,
    ...uleb(ri),
    ...get(stride),
    I32_MUL,
    ...get(m),
    I32_ADD,
    LOCAL_TEE,
    ...uleb(row),
    ...get(stride),
    I32_ADD,
    ...set(j),
    ...acc.flatMap((a) => [...zero, ...set(a)]),
    ...get(q),
    ...set(qq),
    LOOP,
    VOID,
    ...madd(acc[0], 0, 0),
    ...madd(acc[1], 8, 16),
    ...madd(acc[2], 16, 32),
    ...madd(acc[3], 24, 48),
    ...get(row),
    ...i32(32),
    I32_ADD,
    LOCAL_TEE,
    ...uleb(row),
    ...get(qq),
    ...i32(64),
    I32_ADD,
    ...set(qq),
    ...get(j),
    I32_LT_U,
    BR_IF,
    0,
    END,
    ...get(acc[0]),
    ...get(acc[1]),
    ...I32X4_ADD,
    ...get(acc[2]),
    ...I32X4_ADD,
    ...get(acc[3]),
    ...I32X4_ADD,
    ...set(acc[0]),
    ...get(out),
    ...get(i),
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
    F32_CONVERT_I32_S,
    ...get(scales),
    ...get(ri),
    ...i32(2),
    I32_SHL,
    I32_ADD,
    F32_LOAD,
    0x02,
    0,
    F32_MUL,
    F32_STORE,
    0x02,
    0,
    ...get(i),
    ...i32(1),
    I32_ADD,
    ...set(i),
    BR,
    0,
    END,
    END,
    END,
  ];
}

function assemble(sharedPages?: number): Uint8Array {
  // dots(q, m, n, stride, out): params 0..4; locals i=5 j=6 row=7 acc=8..11
  const dots = functionBody(
    [
      [3, I32],
      [4, V128],
    ],
    dotLoop({
      q: 0,
      n: 2,
      stride: 3,
      out: 4,
      i: 5,
      j: 6,
      row: 7,
      acc: [8, 9, 10, 11],
      // row = m + i * stride
      rowAddress: [...get(1), ...get(5), ...get(3), I32_MUL, I32_ADD],
    }),
  );
  // dotsAt(q, m, idx, n, stride, out): params 0..5; locals i=6 j=7 row=8 acc=9..12
  const dotsAt = functionBody(
    [
      [3, I32],
      [4, V128],
    ],
    dotLoop({
      q: 0,
      n: 3,
      stride: 4,
      out: 5,
      i: 6,
      j: 7,
      row: 8,
      acc: [9, 10, 11, 12],
      // row = m + idx[i] * stride
      rowAddress: [
        ...get(1),
        ...get(2),
        ...get(6),
        ...i32(2),
        I32_SHL,
        I32_ADD,
        I32_LOAD,
        0x02,
        0,
        ...get(4),
        I32_MUL,
        I32_ADD,
      ],
    }),
  );
  // dotsI8(q, m, n, stride, scales, out): params 0..5; locals i=6 j=7 row=8 ri=9 qq=10 acc=11..14
  const dotsI8 = functionBody(
    [
      [5, I32],
      [4, V128],
    ],
    dotI8Loop({
      q: 0,
      m: 1,
      n: 2,
      stride: 3,
      scales: 4,
      out: 5,
      i: 6,
      j: 7,
      row: 8,
      ri: 9,
      qq: 10,
      acc: [11, 12, 13, 14],
      rowIndex: get(6),
    }),
  );
  // dotsI8At(q, m, idx, n, stride, scales, out): params 0..6; locals i=7 j=8 row=9 ri=10 qq=11 acc=12..15
  const dotsI8At = functionBody(
    [
      [5, I32],
      [4, V128],
    ],
    dotI8Loop({
      q: 0,
      m: 1,
      n: 3,
      stride: 4,
      scales: 5,
      out: 6,
      i: 7,
      j: 8,
      row: 9,
      ri: 10,
      qq: 11,
      acc: [12, 13, 14, 15],
      // ri = idx[i]
      rowIndex: [...get(2), ...get(7), ...i32(2), I32_SHL, I32_ADD, I32_LOAD, 0x02, 0],
    }),
  );
  const types = section(
    1,
    vec([
      [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), 0x00],
      [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), 0x00],
      [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32], [I32]]), 0x00],
    ]),
  );
  // A shared memory must declare its maximum (limits flag 3); a private one only its minimum.
  const limits = sharedPages === undefined ? [0x00, 0x01] : [0x03, 0x01, ...uleb(sharedPages)];
  const imports = section(2, vec([[...name('env'), ...name('memory'), 0x02, ...limits]]));
  const functions = section(3, vec([[0], [1], [1], [2]]));
  const exports = section(
    7,
    vec([
      [...name('dots'), 0x00, 0],
      [...name('dotsAt'), 0x00, 1],
      [...name('dotsI8'), 0x00, 2],
      [...name('dotsI8At'), 0x00, 3],
    ]),
  );
  const code = section(10, vec([dots, dotsAt, dotsI8, dotsI8At]));
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...types,
    ...imports,
    ...functions,
    ...exports,
    ...code,
  ]);
}

/** The module's bytes; validated by `WebAssembly.validate` before use. */
export const WASM_DOT_KERNEL_BYTES: Uint8Array = assemble();

/** Pages of the shared variant's memory at most: 4 GiB, all a 32-bit module can address. */
export const SHARED_MEMORY_MAX_PAGES = 65_536;

/** The same functions over a shared memory, so scanning threads can split one scan over one copy of the rows. */
export const WASM_DOT_KERNEL_SHARED_BYTES: Uint8Array = assemble(SHARED_MEMORY_MAX_PAGES);
