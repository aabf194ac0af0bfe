/** A Float32Array as the little-endian float32 blob sqlite-vec and the embedding cache store. */
export const vectorToBlob = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/** Copies a float32 blob out of SQLite's buffer (which may be unaligned or reused). */
export function blobToVector(blob: Uint8Array): Float32Array {
  const out = new Float32Array(blob.byteLength >> 2);
  new Uint8Array(out.buffer).set(blob.subarray(0, out.byteLength));
  return out;
}
