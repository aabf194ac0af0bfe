import { describe, expect, it } from 'vitest';
import { createJsDotKernel, createWasmDotKernel, type DotKernel } from './dot-kernel.ts';
import { topK } from './top-k.ts';
import { VectorIndex } from './vector-index.ts';
import { createThreadedDotKernel } from './vector-scan-threads.ts';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296 - 0.5;
  };
}

/** Fills q and n rows (stride floats each, zero-padded past `dims`), runs both entry points, returns the scores. */
function run(kernel: DotKernel, n: number, dims: number, stride: number, rows: number[], seed: number) {
  const next = random(seed);
  const strideBytes = stride * 4;
  const m = strideBytes;
  const out = m + n * strideBytes;
  const idx = out + n * 4;
  kernel.reserve(idx + n * 4);
  const f32 = new Float32Array(kernel.buffer());
  f32.fill(0, 0, idx / 4);
  for (let d = 0; d < dims; d++) f32[d] = next();
  for (let r = 0; r < n; r++) for (let d = 0; d < dims; d++) f32[m / 4 + r * stride + d] = next();
  kernel.dots(0, m, n, strideBytes, out);
  const all = Array.from(new Float32Array(kernel.buffer(), out, n));
  new Int32Array(kernel.buffer(), idx, rows.length).set(rows);
  kernel.dotsAt(0, m, idx, rows.length, strideBytes, out);
  const subset = Array.from(new Float32Array(kernel.buffer(), out, rows.length));
  // Reference straight from the inputs, in double precision.
  const view = new Float32Array(kernel.buffer());
  const reference = Array.from({ length: n }, (_, r) => {
    let sum = 0;
    for (let d = 0; d < dims; d++) sum += (view[d] as number) * (view[m / 4 + r * stride + d] as number);
    return sum;
  });
  return { all, subset, reference };
}

describe('dot kernels', () => {
  const wasm = createWasmDotKernel();

  it('has WebAssembly SIMD on this runtime', () => {
    expect(wasm?.kind).toBe('wasm-simd');
  });

  for (const [n, dims] of [
    [1, 3],
    [7, 16],
    [100, 8],
    [333, 384],
    [64, 250],
  ] as const) {
    it(`agrees with the JS kernel and a float64 reference: ${n} rows × ${dims} dims`, () => {
      const stride = Math.ceil(dims / 16) * 16;
      const rows = Array.from({ length: Math.ceil(n / 2) }, (_, i) => (i * 7919) % n);
      const viaWasm = run(wasm as DotKernel, n, dims, stride, rows, n + dims);
      const viaJs = run(createJsDotKernel(), n, dims, stride, rows, n + dims);
      for (let r = 0; r < n; r++) {
        expect(viaWasm.all[r]).toBeCloseTo(viaJs.reference[r] as number, 4);
        expect(viaJs.all[r]).toBeCloseTo(viaJs.reference[r] as number, 4);
      }
      rows.forEach((row, i) => {
        expect(viaWasm.subset[i]).toBeCloseTo(viaJs.reference[row] as number, 4);
        expect(viaJs.subset[i]).toBeCloseTo(viaJs.reference[row] as number, 4);
      });
    });
  }

  it('keeps its contents when memory grows', () => {
    const kernel = wasm as DotKernel;
    kernel.reserve(1024);
    new Float32Array(kernel.buffer())[10] = 42;
    kernel.reserve(10 * 65_536);
    expect(new Float32Array(kernel.buffer())[10]).toBe(42);
    expect(kernel.buffer().byteLength).toBeGreaterThanOrEqual(10 * 65_536);
  });
});

describe('topK', () => {
  it('returns the k best indices, best first, ties by key', () => {
    const scores = new Float32Array([0.1, 0.9, 0.5, 0.9, -1, 0.7]);
    expect(topK(scores, scores.length, 3, (i) => i)).toEqual([1, 3, 5]);
    expect(topK(scores, scores.length, 3, (i) => -i)).toEqual([3, 1, 5]);
    expect(topK(scores, scores.length, 10, (i) => i)).toEqual([1, 3, 5, 2, 0, 4]);
    expect(topK(scores, 0, 3, (i) => i)).toEqual([]);
  });

  it('matches a full sort on random data', () => {
    const next = random(3);
    const scores = Float32Array.from({ length: 5000 }, () => next());
    const expected = Array.from(scores.keys())
      .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b)
      .slice(0, 50);
    expect(topK(scores, scores.length, 50, (i) => i)).toEqual(expected);
  });
});

describe('VectorIndex', () => {
  const dims = 20;
  const vector = (next: () => number) => Float32Array.from({ length: dims }, () => next());

  it('gives the same results after incremental upserts and removals as a fresh build', () => {
    const next = random(11);
    const live = new Map<number, { doc: number; vector: Float32Array }>();
    const incremental = new VectorIndex(createWasmDotKernel() as DotKernel, dims);
    for (let pk = 1; pk <= 3000; pk++) {
      const entry = { doc: pk % 17, vector: vector(next) };
      live.set(pk, entry);
      incremental.upsert(pk, entry.doc, entry.vector);
    }
    for (let pk = 1; pk <= 3000; pk += 3) {
      live.delete(pk);
      incremental.remove(pk);
    }
    incremental.remove(999_999);
    const fresh = new VectorIndex(createJsDotKernel(), dims);
    for (const [pk, entry] of live) fresh.upsert(pk, entry.doc, entry.vector);
    expect(incremental.size).toBe(live.size);

    const query = vector(next);
    const strip = (hits: { chunkPk: number; score: number }[]) => hits.map((hit) => hit.chunkPk);
    expect(strip(incremental.search(query, 25))).toEqual(strip(fresh.search(query, 25)));
    const even = (doc: number) => doc % 2 === 0;
    const filtered = incremental.search(query, 25, incremental.rowsWhere(even));
    expect(strip(filtered)).toEqual(strip(fresh.search(query, 25, fresh.rowsWhere(even))));
    expect(filtered.every((hit) => even((live.get(hit.chunkPk) as { doc: number }).doc))).toBe(true);
  });

  it('scores by cosine whatever the stored and query norms', () => {
    const index = new VectorIndex(createWasmDotKernel() as DotKernel, 3);
    index.upsert(1, 1, Float32Array.from([10, 0, 0]));
    index.upsert(2, 1, Float32Array.from([0, 0.1, 0]));
    index.upsert(3, 1, Float32Array.from([1, 1, 0]));
    index.upsert(4, 1, Float32Array.from([0, 0, 0]));
    const hits = index.search(Float32Array.from([3, 0, 0]), 4);
    expect(hits.map((hit) => hit.chunkPk)).toEqual([1, 3, 2, 4]);
    expect(hits.map((hit) => hit.score)).toEqual([1, expect.closeTo(Math.SQRT1_2, 6), 0, 0]);
  });
});

describe('int8 dot kernels', () => {
  const wasm = createWasmDotKernel() as DotKernel;

  /** Int16 query, n int8 rows of `stride` bytes, per-row scales; both entry points against an exact reference. */
  function runI8(kernel: DotKernel, n: number, stride: number, rows: number[], seed: number) {
    const next = random(seed);
    const q = 0;
    const m = stride * 2;
    const scales = m + n * stride;
    const out = scales + n * 4;
    const idx = out + n * 4;
    kernel.reserve(idx + n * 4);
    const bytes = kernel.buffer();
    const query = new Int16Array(bytes, q, stride);
    const matrix = new Int8Array(bytes, m, n * stride);
    const scale = new Float32Array(bytes, scales, n);
    for (let d = 0; d < stride; d++) query[d] = Math.round(next() * 254);
    for (let i = 0; i < n * stride; i++) matrix[i] = Math.round(next() * 254);
    for (let r = 0; r < n; r++) scale[r] = 0.5 + next();
    const reference = Array.from({ length: n }, (_, r) => {
      let sum = 0;
      for (let d = 0; d < stride; d++) sum += (query[d] as number) * (matrix[r * stride + d] as number);
      return sum * (scale[r] as number);
    });
    kernel.dotsI8(q, m, n, stride, scales, out);
    const all = Array.from(new Float32Array(kernel.buffer(), out, n));
    new Int32Array(kernel.buffer(), idx, rows.length).set(rows);
    kernel.dotsI8At(q, m, idx, rows.length, stride, scales, out);
    const subset = Array.from(new Float32Array(kernel.buffer(), out, rows.length));
    return { all, subset, reference };
  }

  for (const [n, stride] of [
    [1, 32],
    [9, 64],
    [300, 512],
  ] as const) {
    it(`matches an exact reference in both kernels: ${n} rows × ${stride} bytes`, () => {
      const rows = Array.from({ length: Math.ceil(n / 2) }, (_, i) => (i * 7919) % n);
      for (const kernel of [wasm, createJsDotKernel()]) {
        const { all, subset, reference } = runI8(kernel, n, stride, rows, n + stride);
        all.forEach((score, r) => expect(score).toBeCloseTo(reference[r] as number, 0));
        subset.forEach((score, i) => expect(score).toBeCloseTo(reference[rows[i] as number] as number, 0));
      }
    });
  }
});

describe('the threaded int8 scan', () => {
  it('gives the single-thread kernel scores bit for bit, over all rows and over a row list', () => {
    const threaded = createThreadedDotKernel(1);
    const single = createWasmDotKernel();
    expect(threaded && single).toBeTruthy();
    const n = 40_000;
    const stride = 32;
    const next = random(11);
    const codes = Int8Array.from({ length: n * stride }, () => Math.round(next() * 254));
    const scales = Float32Array.from({ length: n }, () => 0.5 + next());
    const query = Int16Array.from({ length: stride }, () => Math.round(next() * 4000));
    const rows = Int32Array.from({ length: n }, (_, i) => (i * 7919) % n);
    const [q, m] = [0, 64];
    const sc = m + n * stride;
    const out = sc + n * 4;
    const idx = out + n * 4;
    const scan = (kernel: DotKernel) => {
      kernel.reserve(idx + n * 4);
      new Int16Array(kernel.buffer(), q, stride).set(query);
      new Int8Array(kernel.buffer(), m, n * stride).set(codes);
      new Float32Array(kernel.buffer(), sc, n).set(scales);
      new Int32Array(kernel.buffer(), idx, n).set(rows);
      kernel.dotsI8(q, m, n, stride, sc, out);
      const all = new Float32Array(kernel.buffer(), out, n).slice();
      kernel.dotsI8At(q, m, idx, n, stride, sc, out);
      return { all, listed: new Float32Array(kernel.buffer(), out, n).slice() };
    };
    const expected = scan(single as DotKernel);
    // Several scans in a row: each job's blocks are claimed afresh, whichever thread is awake.
    for (let run = 0; run < 3; run++) expect(scan(threaded as DotKernel)).toEqual(expected);
    threaded?.close();
    expect(scan(threaded as DotKernel)).toEqual(expected);
    threaded?.close();
  });
});
