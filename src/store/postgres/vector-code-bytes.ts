/**
 * A vector's int8 code as the vector channel scans it (vector-codes.ts), and as `chunk_vectors.code` stores it
 * (migration 29): the vector scaled to unit length and quantized symmetrically to ±127, one scale per row, as the
 * SQLite store's int8 scan does. Stored as 4 bytes of the scale (float4, big-endian, what `float4send` writes) then one
 * byte per dimension (two's complement). Writers compute it from the vector they insert; migration 29 computes the
 * same bytes in SQL for rows written before (vector_code() there follows `quantize` step for step).
 */

/** Levels of a stored row's int8 code, and of the query's int16 one (Σ |q|·|row| stays below 2³¹ up to 8,000 dimensions). */
export const ROW_LEVELS = 127;
export const QUERY_LEVELS = 2047;
/** Bytes before the codes in a stored code: the scale. */
export const CODE_HEADER = 4;

/**
 * Symmetric quantization of `vector` scaled to unit length: codes in ±levels, returns the scale of one level (0 for a
 * zero or non-finite vector, whose codes are all 0).
 */
export function quantize(vector: Float32Array, levels: number, codes: Int8Array | Int16Array): number {
  let norm = 0;
  let maxAbs = 0;
  for (const value of vector) {
    norm += value * value;
    if (Math.abs(value) > maxAbs) maxAbs = Math.abs(value);
  }
  codes.fill(0);
  if (norm === 0 || !Number.isFinite(norm) || !Number.isFinite(maxAbs)) return 0;
  const inverse = levels / maxAbs;
  for (let d = 0; d < vector.length; d++) codes[d] = Math.round((vector[d] as number) * inverse);
  return maxAbs / levels / Math.sqrt(norm);
}

/** The stored code of `vector` (what `chunk_vectors.code` holds). */
export function encodeRowCode(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(CODE_HEADER + vector.length);
  const codes = new Int8Array(bytes.buffer, bytes.byteOffset + CODE_HEADER, vector.length);
  bytes.writeFloatBE(quantize(vector, ROW_LEVELS, codes), 0);
  return bytes;
}

/** pgvector's binary form of a vector (`vector_send`): int16 dimension, int16 unused, then big-endian float4s. */
export function decodeVector(bytes: Uint8Array, dimension: number, into: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getInt16(0) !== dimension)
    throw new Error(`A stored vector has ${view.getInt16(0)} dimensions, not ${dimension}.`);
  for (let d = 0; d < dimension; d++) into[d] = view.getFloat32(4 + 4 * d);
}

/**
 * A statement's codes as two bind parameters: one bytea of them all end to end (sent in binary: a bytea[] parameter
 * goes as text, two hex digits a byte, escaped) and the length of one. `CODE_OF_ROW` cuts row `u.i`'s (1-based) out of
 * parameters $3 and $4.
 */
export function packCodes(codes: readonly Buffer[]): [Buffer, number] {
  const length = codes[0]?.length ?? 0;
  for (const code of codes) if (code.length !== length) throw new Error('Codes of one statement differ in length.');
  return [Buffer.concat(codes), length];
}
export const CODE_OF_ROW = 'substring($3::bytea FROM ((u.i - 1) * $4::int + 1)::int FOR $4::int)';
