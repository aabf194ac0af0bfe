import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { Principal } from '../../domain/index.ts';
import { BEFORE_HALFVEC_INDEX } from '../../testing/postgres-migration-rollback.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { ADMIN, ALICE, BOB, documentWrite, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { halfvecIndex } from './migrations/027-halfvec-index.ts';
import { openPostgresStore } from './store.ts';

/** Cosine similarity in float64 of two float32 vectors, as the exact ranking computes it. */
function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

const K = 10;

describeWithPostgres('postgres vector channel over the half-precision HNSW index', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it('ranks by the float32 distance, as an exact scan does, before and after migration 27 rebuilds the index', async () => {
    const schema = freshSchema('evident_halfvec');
    schemas.push(schema);
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296;
    const rows: { id: string; acl: string[]; vector: Float32Array }[] = [];
    const store = await openPostgresStore(url, { schema });
    for (let d = 0; d < 40; d++) {
      const acl = d % 3 === 0 ? ['group:legal'] : [];
      const chunks = Array.from({ length: 5 }, (_, i) => ({ text: `chunk ${d} ${i}`, vector: unitVector(next) }));
      chunks.forEach((chunk, i) => rows.push({ id: `doc-${d}.md#${i}`, acl, vector: chunk.vector }));
      await store.putDocument(documentWrite({ docId: `doc-${d}.md`, acl, chunks }));
    }
    const queries = Array.from({ length: 12 }, () => unitVector(next));
    // Exact top K for a principal: best cosine first (the store orders ties by pk, which follows insertion here).
    const exact = (query: Float32Array, visible: (acl: string[]) => boolean) =>
      rows
        .filter((row) => visible(row.acl))
        .map((row, order) => ({ id: row.id, score: cosine(query, row.vector), order }))
        .sort((a, b) => b.score - a.score || a.order - b.order)
        .slice(0, K);
    const check = async (s: typeof store, principal: Principal, visible: (acl: string[]) => boolean) => {
      for (const query of queries) {
        const hits = await s.vectorSearch(query, principal, K);
        const expected = exact(query, visible);
        expect(hits.map((hit) => hit.chunkId)).toEqual(expected.map((row) => row.id));
        hits.forEach((hit, i) => {
          expect(hit.rank).toBe(i + 1);
          // Float32 scores, not the index's half-precision ones (which differ by ~1e-3).
          expect(hit.score).toBeCloseTo(expected[i]?.score as number, 5);
        });
      }
    };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path = "${schema}"`);
      const indexDef = async () =>
        (
          await client.query<{ def: string }>(
            "SELECT indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'chunk_vectors_hnsw'",
          )
        ).rows[0]?.def;
      expect(await indexDef()).toMatch(/hnsw \(\(\(embedding\)::(\w+\.)?halfvec\(8\)\) (\w+\.)?halfvec_cosine_ops\)/);
      // The admin walks the index (the 200 rows are within the walk's candidate list, so it finds the exact top K);
      // a member reading few chunks is served by the exact scan. Neither sees a refused row.
      await check(store, ADMIN, () => true);
      await check(store, ALICE, () => true);
      await check(store, BOB, (acl) => acl.length === 0);
      await store.close();

      await client.query(
        `${BEFORE_HALFVEC_INDEX} DELETE FROM schema_migrations WHERE version >= ${halfvecIndex.version};`,
      );
      expect(await indexDef()).toMatch(/hnsw \(embedding (\w+\.)?vector_cosine_ops\)/);
      const reopened = await openPostgresStore(url, { schema });
      try {
        expect(await indexDef()).toMatch(/halfvec_cosine_ops/);
        await check(reopened, ADMIN, () => true);
      } finally {
        await reopened.close();
      }
    } finally {
      await client.end();
    }
  }, 120_000);
});
