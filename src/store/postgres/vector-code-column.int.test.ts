import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { BEFORE_VECTOR_CODES } from '../../testing/postgres-migration-rollback.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { ADMIN, BOB, documentWrite, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { vectorCodes } from './migrations/029-vector-codes.ts';
import { openPostgresStore } from './store.ts';
import { encodeRowCode } from './vector-code-bytes.ts';
import { readLogState, VECTOR_LOG_STATE_SQL, VectorCodes } from './vector-codes.ts';

/**
 * Vectors whose quantized values fall exactly halfway between two levels (v · 127 / max = ±2.5, ±0.5): the stored
 * code rounds them half up (3, −2, 1, 0) in JavaScript and in migration 29's SQL alike.
 */
const HALVES = [
  Float32Array.from([127, 2.5, -2.5, 0.5, -0.5, 0, 63.5, -63.5]),
  Float32Array.from([-127, 1.5, -1.5, 126.5, -126.5, 0.25, -0.25, 3]),
];

describeWithPostgres('postgres vector channel: the int8 codes stored beside the vectors (migration 29)', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it('stores each code as the process computes it, backfills the same bytes on upgrade, and loads either the same', async () => {
    const schema = freshSchema('evident_vcode_col');
    schemas.push(schema);
    let seed = 29;
    const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296;
    const vectors = new Map<string, Float32Array>();
    const store = await openPostgresStore(url, { schema });
    // 50 documents × 8 chunks (more rows than the candidates' depth × 2, so the int8 pass picks them), every third
    // one readable by the legal group only.
    for (let d = 0; d < 50; d++) {
      const doc = `doc-${d}.md`;
      const chunks = Array.from({ length: 8 }, (_, i) => ({
        text: `chunk ${d} ${i}`,
        vector: d === 0 && i < HALVES.length ? (HALVES[i] as Float32Array) : unitVector(next),
      }));
      chunks.forEach((chunk, i) => vectors.set(`${doc}#${i}`, chunk.vector));
      await store.putDocument(
        documentWrite({ docId: doc, acl: d % 3 === 0 ? ['group:legal'] : [], contentHash: `h${d}`, chunks }),
      );
    }
    const queries = Array.from({ length: 8 }, () => unitVector(next));
    const before = await Promise.all(
      queries.flatMap((q) => [store.vectorSearch(q, ADMIN, 10), store.vectorSearch(q, BOB, 10)]),
    );
    await store.close();

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path = "${schema}", public`);
      const stored = async () =>
        new Map(
          (
            await client.query<{ id: string; code: Buffer | null }>(
              'SELECT c.id, v.code FROM chunk_vectors v JOIN chunks c ON c.pk = v.chunk_pk',
            )
          ).rows.map((row) => [row.id, row.code]),
        );
      // The writer's codes are the process's.
      const written = await stored();
      expect(written.size).toBe(400);
      for (const [id, vector] of vectors) expect(written.get(id)).toEqual(encodeRowCode(vector));
      expect([...(written.get('doc-0.md#0') as Buffer).subarray(4, 8)]).toEqual([127, 3, 254, 1]);

      // A store of schema 28 is upgraded in place: migration 29 computes every row's code in SQL, the same bytes.
      await client.query(
        `${BEFORE_VECTOR_CODES} DELETE FROM schema_migrations WHERE version >= ${vectorCodes.version};`,
      );
      const reopened = await openPostgresStore(url, { schema });
      try {
        const backfilled = await stored();
        for (const [id, code] of written) expect(backfilled.get(id)).toEqual(code);
        const after = await Promise.all(
          queries.flatMap((q) => [reopened.vectorSearch(q, ADMIN, 10), reopened.vectorSearch(q, BOB, 10)]),
        );
        expect(after).toEqual(before);
      } finally {
        await reopened.close();
      }

      // Codes loaded from the column and codes made from the vectors (rows an older process wrote without one)
      // pick the same candidates: half the rows lose their code, a fresh set of codes loads both kinds.
      const state = readLogState((await client.query(VECTOR_LOG_STATE_SQL)).rows[0]);
      const fromColumn = new VectorCodes();
      await fromColumn.sync(client as unknown as pg.PoolClient, state, 8);
      await client.query('UPDATE chunk_vectors SET code = NULL WHERE chunk_pk % 2 = 0');
      const mixed = new VectorCodes();
      await mixed.sync(client as unknown as pg.PoolClient, state, 8);
      expect(mixed.size).toBe(400);
      for (const q of queries) {
        for (const keys of [undefined, ['user:bob']]) {
          const picked = fromColumn.candidates(q, 64, 0, keys);
          expect(picked).toHaveLength(64);
          expect(mixed.candidates(q, 64, 0, keys)).toEqual(picked);
        }
      }
    } finally {
      await client.end();
    }
  }, 120_000);
});
