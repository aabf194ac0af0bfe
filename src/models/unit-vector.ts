/** Scales `vector` in place to unit length (a zero vector stays zero) and returns it. */
export function normalizeInPlace(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  }
  return vector;
}
