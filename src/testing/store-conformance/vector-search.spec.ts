import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import {
  ADMIN,
  ALICE,
  CAROL,
  cosine,
  docOf,
  documentWrite,
  EMBEDDER,
  expectRanked,
  expectRejects,
  ids,
  unitVector,
} from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** The vector channel: cosine similarity against a brute-force reference, with and without a filter (the document port). */
export function describeVectorSearch(suite: ConformanceSuite): void {
  describe('vector search', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('matches a brute-force cosine reference, with and without a filter', async () => {
      const next = random(7);
      const vectors = new Map<string, Float32Array>();
      const acls: Record<string, string[]> = { 'v0.md': [], 'v1.md': ['group:legal'], 'v2.md': ['group:board'] };
      for (const [docId, acl] of Object.entries(acls)) {
        const chunks = Array.from({ length: 40 }, (_, i) => ({
          text: `chunk ${i} of ${docId}`,
          vector: unitVector(next),
        }));
        chunks.forEach((chunk, i) => vectors.set(`${docId}#${i}`, chunk.vector));
        await store.putDocument(documentWrite({ docId, acl, chunks }));
      }
      for (let q = 0; q < 5; q++) {
        const query = unitVector(next);
        const reference = (allowed: (docId: string) => boolean) =>
          [...vectors]
            .filter(([id]) => allowed(docOf(id)))
            .map(([id, vector]) => ({ id, score: cosine(query, vector) }))
            .sort((a, b) => b.score - a.score)
            .slice(0, 10);
        for (const [principal, allowed] of [
          [ADMIN, () => true],
          [ALICE, (docId: string) => docId !== 'v2.md'],
          [CAROL, (docId: string) => docId === 'v0.md'],
        ] as const) {
          const hits = await store.vectorSearch(query, principal, 10);
          const expected = reference(allowed);
          expect(ids(hits)).toEqual(expected.map((hit) => hit.id));
          hits.forEach((hit, i) => expect(hit.score).toBeCloseTo((expected[i] as { score: number }).score, 4));
          expectRanked(hits);
        }
      }
    });

    it('refuses a query vector of another dimension', async () => {
      await store.putDocument(documentWrite({ docId: 'd.md', chunks: [{ text: 'x', vector: unitVector(random(8)) }] }));
      await expectRejects(store.vectorSearch(new Float32Array(EMBEDDER.dimension + 3), ADMIN, 5));
    });
  });
}
