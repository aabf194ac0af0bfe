import { describe, expect, it } from 'vitest';
import { createInt8ScanKernel } from './int8-scan-kernel.ts';

describe('int8 scan kernel', () => {
  for (const forceJs of [false, true]) {
    it(`computes the exact int32 dot products of int16 queries with int8 rows (${forceJs ? 'js' : 'wasm'})`, () => {
      const kernel = createInt8ScanKernel(forceJs);
      if (!forceJs) expect(kernel.kind).toBe('wasm-simd');
      let seed = 7;
      const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0);
      for (const [stride, n] of [
        [8, 1],
        [16, 5],
        [24, 3],
        [512, 37],
      ] as const) {
        const q = 0;
        const m = stride * 2;
        const out = m + n * stride;
        kernel.reserve(out + n * 4 + 200_000);
        const query = new Int16Array(kernel.buffer(), q, stride);
        const rows = new Int8Array(kernel.buffer(), m, n * stride);
        // Extreme values included: ±2047 queries against -128 / 127 rows stay within int32.
        for (let d = 0; d < stride; d++) query[d] = d === 0 ? -2047 : (next() % 4095) - 2047;
        for (let i = 0; i < n * stride; i++) rows[i] = i === 0 ? -128 : (next() % 256) - 128;
        kernel.dots(q, m, n, stride, out);
        const sums = new Int32Array(kernel.buffer(), out, n);
        for (let i = 0; i < n; i++) {
          let expected = 0;
          for (let d = 0; d < stride; d++) expected += (query[d] as number) * (rows[i * stride + d] as number);
          expect(sums[i]).toBe(expected);
        }
      }
    });
  }
});
