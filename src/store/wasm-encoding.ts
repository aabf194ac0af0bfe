/** The WebAssembly binary encoding both stores' vector kernels are assembled with: opcodes, LEB128 integers, sections. */
// Opcodes (core and 0xFD-prefixed SIMD, final SIMD spec numbering).
export const BLOCK = 0x02;
export const LOOP = 0x03;
export const BR = 0x0c;
export const BR_IF = 0x0d;
export const END = 0x0b;
export const VOID = 0x40;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
export const I32_LOAD = 0x28;
export const F32_STORE = 0x38;
const I32_CONST = 0x41;
export const I32_GE_U = 0x4f;
export const I32_ADD = 0x6a;
export const I32_MUL = 0x6c;
export const I32_SHL = 0x74;
export const F32_ADD = 0x92;
export const I32 = 0x7f;
export const V128 = 0x7b;
export const SIMD = 0xfd;
export const V128_LOAD = [SIMD, 0x00];
export const V128_CONST = [SIMD, 0x0c];
export const F32X4_EXTRACT_LANE = [SIMD, 0x1f];
export const F32X4_ADD = [SIMD, 0xe4, 0x01];
export const F32X4_MUL = [SIMD, 0xe6, 0x01];
export const LOCAL_TEE = 0x22;
export const F32_LOAD = 0x2a;
export const F32_MUL = 0x94;
export const F32_CONVERT_I32_S = 0xb2;
export const V128_LOAD8X8_S = [SIMD, 0x01];
export const I32_LT_U = 0x49;
export const I32X4_DOT_I16X8_S = [SIMD, 0xba, 0x01];
export const I32X4_ADD = [SIMD, 0xae, 0x01];
export const I32X4_EXTRACT_LANE = [SIMD, 0x1b];

export function uleb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128, as `i32.const` immediates are encoded (0x40 alone would read as -64). */
function sleb(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

export const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
export const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
export const name = (text: string): number[] => vec([...new TextEncoder().encode(text)].map((byte) => [byte]));
export const get = (local: number): number[] => [LOCAL_GET, ...uleb(local)];
export const set = (local: number): number[] => [LOCAL_SET, ...uleb(local)];
export const i32 = (value: number): number[] => [I32_CONST, ...sleb(value)];

export function functionBody(localGroups: [count: number, type: number][], code: number[]): number[] {
  const body = [...vec(localGroups.map(([count, type]) => [...uleb(count), type])), ...code];
  return [...uleb(body.length), ...body];
}
