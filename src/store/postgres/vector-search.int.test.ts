import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { Principal } from '../../domain/index.ts';
import { BEFORE_VECTOR_LOG } from '../../testing/postgres-migration-rollback.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { ADMIN, ALICE, BOB, documentWrite, EMBEDDER, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { vectorLog } from './migrations/028-vector-log.ts';
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
type Row = { id: string; doc: string; acl: string[]; vector: Float32Array; order: number };
type Store = Awaited<ReturnType<typeof openPostgresStore>>;

describeWithPostgres('postgres vector channel: int8 codes in the process, exact rescoring', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it('returns the exact top k for admin and members, and follows writes made by another process', async () => {
    const schema = freshSchema('evident_vcodes');
    schemas.push(schema);
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296;
    let rows: Row[] = [];
    let order = 0;
    const writer = await openPostgresStore(url, { schema });
    const put = async (s: Store, d: number, acl: string[], vectors?: Float32Array[]) => {
      const doc = `doc-${d}.md`;
      const chunks = Array.from({ length: 8 }, (_, i) => ({
        text: `chunk ${d} ${i}`,
        vector: vectors?.[i] ?? unitVector(next),
      }));
      rows = rows.filter((row) => row.doc !== doc);
      chunks.forEach((chunk, i) => rows.push({ id: `${doc}#${i}`, doc, acl, vector: chunk.vector, order: order++ }));
      await s.putDocument(documentWrite({ docId: doc, acl, contentHash: `hash-${d}-${order}`, chunks }));
    };
    // 60 documents × 8 chunks: more rows than the depth (64) × 2, so the int8 pass picks the candidates.
    for (let d = 0; d < 60; d++) await put(writer, d, d % 3 === 0 ? ['group:legal'] : []);
    const queries = Array.from({ length: 12 }, () => unitVector(next));
    // Exact top K for a principal: best cosine first (the store orders ties by pk, which follows insertion here).
    const exact = (query: Float32Array, visible: (acl: string[]) => boolean) =>
      rows
        .filter((row) => visible(row.acl))
        .map((row) => ({ id: row.id, score: cosine(query, row.vector), order: row.order }))
        .sort((a, b) => b.score - a.score || a.order - b.order)
        .slice(0, K);
    const check = async (s: Store, principal: Principal, visible: (acl: string[]) => boolean, qs = queries) => {
      for (const query of qs) {
        const hits = await s.vectorSearch(query, principal, K);
        const expected = exact(query, visible);
        expect(hits.map((hit) => hit.chunkId)).toEqual(expected.map((row) => row.id));
        hits.forEach((hit, i) => {
          expect(hit.rank).toBe(i + 1);
          expect(hit.score).toBeCloseTo(expected[i]?.score as number, 5);
        });
      }
    };
    const everyone = () => true;
    const bob = (acl: string[]) => acl.length === 0;
    // A second store on the same schema stands for another server process: its codes follow the writer's writes.
    const reader = await openPostgresStore(url, { schema });
    try {
      await check(reader, ADMIN, everyone);
      await check(reader, ALICE, everyone);
      await check(reader, BOB, bob);

      // A new document whose first chunk is a query itself: found first, by the process that did not write it.
      const target = queries[0] as Float32Array;
      await put(writer, 100, [], [target]);
      expect((await reader.vectorSearch(target, BOB, K))[0]?.chunkId).toBe('doc-100.md#0');
      await check(reader, ADMIN, everyone);
      // Replaced (a new version, other vectors), then deleted: the old rows never come back.
      await put(writer, 100, []);
      expect((await reader.vectorSearch(target, ADMIN, K))[0]?.chunkId).not.toBe('doc-100.md#0');
      await check(reader, ADMIN, everyone);
      expect(await writer.deleteDocument('doc-100.md')).toBe(true);
      rows = rows.filter((row) => row.doc !== 'doc-100.md');
      await check(reader, ADMIN, everyone);
      await check(reader, BOB, bob);
      // An ACL change applies at once (documents are read with each search; the codes do not hold permissions).
      const hash = (await writer.listDocuments(ADMIN)).find((doc) => doc.docId === 'doc-1.md')?.contentHash as string;
      expect(await writer.updateDocumentAcl('doc-1.md', hash, ['group:legal'])).toBe(true);
      for (const row of rows) if (row.doc === 'doc-1.md') row.acl = ['group:legal'];
      await check(reader, BOB, bob);
      // And the other way: a document opened to everyone is a candidate for Bob at once (its chunk first here).
      const opened = (await writer.listDocuments(ADMIN)).find((doc) => doc.docId === 'doc-0.md')?.contentHash as string;
      expect(await writer.updateDocumentAcl('doc-0.md', opened, [])).toBe(true);
      for (const row of rows) if (row.doc === 'doc-0.md') row.acl = [];
      const doc0 = rows.find((row) => row.doc === 'doc-0.md') as Row;
      expect((await reader.vectorSearch(doc0.vector, BOB, K))[0]?.chunkId).toBe(doc0.id);
      await check(reader, BOB, bob);
      await check(reader, ALICE, everyone);

      // Reindexing makes the vector table anew (a new generation of the log): every process loads it again.
      const renewed = new Map(rows.map((row) => [row.id, unitVector(next)]));
      await writer.replaceVectors(EMBEDDER, renewed);
      for (const row of rows) row.vector = renewed.get(row.id) as Float32Array;
      await check(reader, ADMIN, everyone);
      await check(reader, BOB, bob);
    } finally {
      await reader.close();
      await writer.close();
    }

    // A store of schema 27 (the HNSW walk) is upgraded in place: the index goes, the log's triggers come.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path = "${schema}", public`);
      await client.query(`${BEFORE_VECTOR_LOG} DELETE FROM schema_migrations WHERE version >= ${vectorLog.version};`);
      const objects = async () =>
        (
          await client.query<{ name: string }>(
            `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'chunk_vectors'
             UNION ALL SELECT tgname FROM pg_trigger WHERE tgrelid = 'chunk_vectors'::regclass AND NOT tgisinternal
             ORDER BY 1`,
          )
        ).rows.map((row) => row.name);
      expect(await objects()).toEqual(['chunk_vectors_hnsw', 'chunk_vectors_pkey']);
      const reopened = await openPostgresStore(url, { schema });
      try {
        expect(await objects()).toEqual(['chunk_vectors_log_delete', 'chunk_vectors_log_insert', 'chunk_vectors_pkey']);
        // Vectors written from now on are kept in the rows, not in TOAST.
        const storage = await client.query<{ s: string }>(
          "SELECT attstorage AS s FROM pg_attribute WHERE attrelid = 'chunk_vectors'::regclass AND attname = 'embedding'",
        );
        expect(storage.rows[0]?.s).toBe('m');
        await check(reopened, ADMIN, everyone);
        await put(reopened, 200, []);
        await check(reopened, BOB, bob);
      } finally {
        await reopened.close();
      }
    } finally {
      await client.end();
    }
  }, 180_000);
});
