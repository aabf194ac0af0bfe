import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { principalAclKeys } from '../../domain/index.ts';
import { bm25Reference, type ReferenceRow } from '../../testing/bm25-reference.ts';
import { BEFORE_POSTING_APPENDS } from '../../testing/postgres-migration-rollback.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { ADMIN, ALICE, BOB, documentWrite, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { chunkPostingMismatches } from './keyword-block-check.ts';
import { keywordTokens } from './keyword-index.ts';
import { postingAppends, postingDeltaSql } from './migrations/030-posting-appends.ts';
import { encodePostings } from './posting-codec.ts';
import { openPostgresStore } from './store.ts';

const WORDS = ['ledger', 'harbour', 'invoice', 'tariff', 'penalty', 'clause', 'audit', 'renewal'];

describeWithPostgres('postgres keyword postings appended by one statement', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it("writes a pk delta's bytes in SQL exactly as the codec does, one to nine bytes, both signs", async () => {
    const schema = freshSchema('evident_appends_sql');
    schemas.push(schema);
    const store = await openPostgresStore(url, { schema });
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path = "${schema}"`);
      const deltas = [0, 1, -1, 63, -64, 64, 8191, -8192, 8192, 1_048_575, -1_048_576, 1_048_576, 2 ** 32 + 7];
      deltas.push(-(2 ** 40) - 3, 2 ** 52 - 1, -(2 ** 52) + 1);
      for (const d of deltas) {
        const sql = await client.query<{ bytes: Buffer }>(`SELECT ${postingDeltaSql('$1::bigint')} AS bytes`, [d]);
        // A posting of pk d after pk 0 with tf 0 and length 0: the delta's varint, then two zero bytes.
        const codec = encodePostings([{ pk: d, tf: 0, len: 0 }], 0);
        expect(sql.rows[0]?.bytes.toString('hex'), `delta ${d}`).toBe(codec.subarray(0, -2).toString('hex'));
      }
    } finally {
      await client.end();
    }
  });

  it("appends after pk gaps and below a block's last pk, across an upgrade to migration 30, ranking as full BM25", async () => {
    const schema = freshSchema('evident_appends');
    schemas.push(schema);
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296;
    const text = () =>
      Array.from({ length: 4 + Math.floor(next() * 12) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
    let rows: ReferenceRow[] = [];
    const write = (d: number) => {
      const id = `doc-${d}.md`;
      const acl = d % 3 === 0 ? ['group:legal'] : [];
      const chunks = Array.from({ length: 3 }, () => ({ text: text(), vector: unitVector(next) }));
      chunks.forEach((chunk, ordinal) => {
        const tokens = keywordTokens(chunk.text);
        const tf = new Map<string, number>();
        for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
        rows.push({ id: `${id}#${ordinal}`, acl, tf, length: tokens.length });
      });
      return documentWrite({ docId: id, acl, chunks });
    };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let store = await openPostgresStore(url, { schema });
    try {
      await client.query(`SET search_path = "${schema}"`);
      const restart = (pk: number) => client.query(`ALTER TABLE chunks ALTER COLUMN pk RESTART WITH ${pk}`);
      await store.putDocuments([0, 1, 2].map(write));
      // Taken back to schema 29 and reopened: migration 30 runs on a store that has blocks, then appends to them.
      await store.close();
      await client.query(
        `${BEFORE_POSTING_APPENDS} DELETE FROM schema_migrations WHERE version >= ${postingAppends.version};`,
      );
      store = await openPostgresStore(url, { schema });
      // A gap of 2^40 pks: the appended deltas take six bytes (written by evident_varint).
      await restart(2 ** 40);
      await store.putDocuments([3, 4].map(write));
      // Pks below the blocks' last ones (as when two writers' transactions commit out of order): negative deltas.
      await restart(1_000);
      await store.putDocuments([5, 6].map(write));
      await restart(2 ** 40 + 5_000);
      for (let d = 7; d < 12; d++) await store.putDocument(write(d));
      expect(await chunkPostingMismatches(client, `"${schema}"`)).toEqual([]);
      const shapes = await client.query<{ blocks: string; fillfactor: string[] | null }>(
        `SELECT (SELECT count(*) FROM keyword_blocks WHERE corpus = 1) AS blocks,
                (SELECT reloptions FROM pg_class WHERE oid = 'keyword_blocks'::regclass) AS fillfactor`,
      );
      // Every word's postings went into one block: appended to, never started anew (8 words, under 128 rows each).
      expect(Number(shapes.rows[0]?.blocks)).toBe(WORDS.length);
      expect(shapes.rows[0]?.fillfactor).toEqual(['fillfactor=80']);
      // The reference breaks ties by its rows' order: the chunks' pk order, which the restarts above made.
      const pkOrder = [0, 1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 11];
      const doc = (row: ReferenceRow) => pkOrder.indexOf(Number(row.id.slice(4, row.id.indexOf('.md'))));
      rows = [...rows].sort((a, b) => doc(a) - doc(b));
      for (const terms of [['ledger'], ['harbour', 'tariff'], ['audit', 'clause', 'renewal']]) {
        for (const principal of [ADMIN, ALICE, BOB]) {
          const hits = await store.keywordSearch(terms, principal, 20);
          expect(
            hits.map((hit) => hit.chunkId),
            `${terms.join(' ')} as ${principal.id}`,
          ).toEqual(bm25Reference(rows, terms, principalAclKeys(principal), 20));
        }
      }
    } finally {
      await store.close();
      await client.end();
    }
  }, 120_000);
});
