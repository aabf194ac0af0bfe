import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDotKernel } from './dot-kernel.ts';
import { VectorIndex } from './vector-index.ts';
import { createThreadedDotKernel } from './vector-scan-threads.ts';
import { openSnapshot, writeSnapshot } from './vector-snapshot.ts';

const DIMENSION = 40;
const ROWS = 24_000;
const root = mkdtempSync(join(tmpdir(), 'evident-vrestore-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296 - 0.5;
  };
}
const vector = (next: () => number): Float32Array => Float32Array.from({ length: DIMENSION }, () => next());

describe('a restored index whose codes a background thread copies', () => {
  it('answers exactly as the index it was written from, while the copy runs, after it, and after a write', async () => {
    const next = random(5);
    const original = new VectorIndex(createDotKernel(), DIMENSION);
    for (let pk = 1; pk <= ROWS; pk++) original.upsert(pk, 1 + (pk % 97), vector(next));
    const path = join(root, 'index.vectors');
    writeSnapshot(path, original, { generation: 3, token: '00'.repeat(16) }).close();

    const kernel = createThreadedDotKernel(1);
    expect(kernel).toBeDefined();
    const image = openSnapshot(path, { dimension: DIMENSION, generation: 3, token: '00'.repeat(16) });
    expect(image?.codeSource).toBeDefined();
    const restored = VectorIndex.restore(
      kernel as NonNullable<typeof kernel>,
      DIMENSION,
      image as NonNullable<typeof image>,
    );
    const queries = Array.from({ length: 6 }, () => vector(next));
    const visible = (docPk: number) => docPk % 5 !== 0;
    const filter = (index: VectorIndex) => index.rowsWhere(visible);
    const same = (label: string) => {
      for (const [i, query] of queries.entries()) {
        expect({ label, i, hits: restored.search(query, 30) }).toEqual({ label, i, hits: original.search(query, 30) });
        expect({ label, i, hits: restored.search(query, 30, filter(restored)) }).toEqual({
          label,
          i,
          hits: original.search(query, 30, filter(original)),
        });
      }
    };
    // Right after the restore the thread has not started: the rows come through the window from the file.
    same('while copying');
    for (let waited = 0; waited < 200 && restored['loader'] !== undefined; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      restored.search(queries[0] as Float32Array, 5);
    }
    expect(restored['loader']).toBeUndefined();
    same('after the copy');
    // A write settles the copy first (the thread ends, the rest is read here), then replays as always.
    const late = vector(next);
    restored.upsert(ROWS + 1, 1, late);
    original.upsert(ROWS + 1, 1, late);
    restored.remove(7);
    original.remove(7);
    same('after writes');
    restored.close();
    original.close();
  });

  it('settles the copy on a write made before the thread has copied anything', () => {
    const next = random(9);
    const original = new VectorIndex(createDotKernel(), DIMENSION);
    for (let pk = 1; pk <= ROWS; pk++) original.upsert(pk, 1, vector(next));
    const path = join(root, 'early.vectors');
    writeSnapshot(path, original, { generation: 1, token: '11'.repeat(16) }).close();
    const image = openSnapshot(path, { dimension: DIMENSION, generation: 1, token: '11'.repeat(16) });
    const kernel = createThreadedDotKernel(1) as NonNullable<ReturnType<typeof createThreadedDotKernel>>;
    const restored = VectorIndex.restore(kernel, DIMENSION, image as NonNullable<typeof image>);
    restored.remove(ROWS);
    original.remove(ROWS);
    const query = vector(next);
    expect(restored.search(query, 20)).toEqual(original.search(query, 20));
    restored.close();
    original.close();
  });
});
