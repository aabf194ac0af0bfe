/**
 * Symmetric scalar quantization of one vector: code[d] = round(v[d] / scale), |code| ≤ levels, with one float scale
 * per vector, so Σ q·v ≈ scale_q · scale_v · Σ code_q·code_v. Rows use int8 (levels 127); the query may use more
 * levels (it is stored as int16), which lowers the error at no scan cost.
 */
export function quantizeInto(
  vector: Float32Array,
  dimension: number,
  levels: number,
  codes: Int8Array | Int16Array,
): number {
  let maxAbs = 0;
  for (let d = 0; d < dimension; d++) {
    const magnitude = Math.abs(vector[d] as number);
    if (magnitude > maxAbs) maxAbs = magnitude;
  }
  codes.fill(0);
  if (maxAbs === 0 || !Number.isFinite(maxAbs)) return 0;
  const inverse = levels / maxAbs;
  for (let d = 0; d < dimension; d++) codes[d] = Math.round((vector[d] as number) * inverse);
  return maxAbs / levels;
}

/** Levels of a stored row (int8). */
export const ROW_LEVELS = 127;
/**
 * Levels of the query (int16 in the kernel): Σ over `dimension` of |q|·|row| must stay below 2³¹, which 2047 × 127
 * keeps for any dimension up to 8,000.
 */
export const QUERY_LEVELS = 2047;

/** Int8 bytes per row: the dimension rounded up to 32, the int8 kernel's unrolled step. */
export const codeStrideFor = (dimension: number): number => Math.ceil(dimension / 32) * 32;
