import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { principalAclKeys, type Principal } from '../../domain/index.ts';
import { bm25Reference, type ReferenceRow } from '../../testing/bm25-reference.ts';
import { BEFORE_POSTING_BLOCKS } from '../../testing/postgres-migration-rollback.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { ADMIN, ALICE, BOB, documentWrite, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { chunkPostingMismatches } from './keyword-block-check.ts';
import { keywordTokens } from './keyword-index.ts';
import { postingBlocks } from './migrations/026-posting-blocks.ts';
import { BLOCK_POSTINGS } from './posting-codec.ts';
import { openPostgresStore } from './store.ts';

/** Deterministic chunk texts: a word in ~60% of rows (several blocks of postings), one in ~15%, many rare ones. */
function corpus(seed0: number) {
  let seed = seed0;
  const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296;
  const rare = Array.from({ length: 200 }, (_, i) => `rare${i}`);
  const text = () => {
    const words = Array.from({ length: 3 + Math.floor(next() * 10) }, () => rare[Math.floor(next() * rare.length)]);
    if (next() < 0.6) words.push(...Array.from({ length: 1 + Math.floor(next() * 3) }, () => 'common'));
    if (next() < 0.15) words.push('middle');
    return words.join(' ');
  };
  return { next, text };
}

const QUERIES = [
  ['common', 'rare3'],
  ['common', 'middle', 'rare7', 'rare9'],
  ['middle', 'rare1'],
  ['common'],
  ['rare1*'],
  ['rare12 rare40'],
];
const PRINCIPALS: Principal[] = [ADMIN, ALICE, BOB];

describeWithPostgres('postgres keyword postings in blocks', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it('keeps the blocks equal to the rows through batches, replacements and deletions, and ranks as full BM25', async () => {
    const schema = freshSchema('evident_blocks');
    schemas.push(schema);
    const { next, text } = corpus(5);
    const store = await openPostgresStore(url, { schema });
    let rows: ReferenceRow[] = [];
    const write = (d: number) => {
      const id = `doc-${String(d).padStart(3, '0')}.md`;
      const acl = d % 4 === 0 ? ['group:legal'] : [];
      const chunks = Array.from({ length: 5 }, () => ({ text: text(), vector: unitVector(next) }));
      // A replaced document's chunks get new pks: they rank after the others on a tie, as in the reference's order.
      rows = rows.filter((row) => !row.id.startsWith(`${id}#`));
      chunks.forEach((chunk, ordinal) => {
        const tokens = keywordTokens(chunk.text);
        const tf = new Map<string, number>();
        for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
        rows.push({ id: `${id}#${ordinal}`, acl, tf, length: tokens.length });
      });
      return documentWrite({ docId: id, acl, chunks, contentHash: `hash-${id}-${rows.length}` });
    };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (let d = 0; d < 80; d += 8) await store.putDocuments(Array.from({ length: 8 }, (_, i) => write(d + i)));
      for (const d of [3, 17, 40, 41, 79]) await store.putDocument(write(d));
      await store.putDocuments([write(8), write(55), write(80)]);
      for (const d of [0, 9, 33, 62]) {
        const id = `doc-${String(d).padStart(3, '0')}.md`;
        expect(await store.deleteDocument(id)).toBe(true);
        rows = rows.filter((row) => !row.id.startsWith(`${id}#`));
      }
      expect(await chunkPostingMismatches(client, `"${schema}"`)).toEqual([]);
      const blocks = await client.query<{ n: number; blocks: string }>(
        `SELECT max(n) AS n, count(*) AS blocks FROM "${schema}".keyword_blocks WHERE corpus = 1 AND term = 'common'`,
      );
      expect(Number(blocks.rows[0]?.blocks)).toBeGreaterThan(1);
      expect(Number(blocks.rows[0]?.n)).toBeLessThanOrEqual(BLOCK_POSTINGS);
      for (const terms of QUERIES.filter((q) => !q.some((term) => term.includes('*') || term.includes(' ')))) {
        for (const principal of PRINCIPALS) {
          for (const limit of [3, 10, 60]) {
            const hits = await store.keywordSearch(terms, principal, limit);
            expect(
              hits.map((hit) => hit.chunkId),
              `${terms.join(' ')} as ${principal.id}, ${limit}`,
            ).toEqual(bm25Reference(rows, terms, principalAclKeys(principal), limit));
          }
        }
      }
    } finally {
      await client.end();
      await store.close();
    }
  }, 120_000);

  it("packs a store's postings in place (migration 26) and ranks exactly as before, prefixes and phrases too", async () => {
    const schema = freshSchema('evident_blocks_upgrade');
    schemas.push(schema);
    const { next, text } = corpus(9);
    const store = await openPostgresStore(url, { schema });
    for (let d = 0; d < 60; d++) {
      const acl = d % 3 === 0 ? ['group:legal'] : [];
      const chunks = Array.from({ length: 4 }, () => ({ text: text(), vector: unitVector(next) }));
      await store.putDocument(documentWrite({ docId: `doc-${d}.md`, acl, chunks }));
    }
    const search = async (s: typeof store) => {
      const out = [];
      for (const terms of QUERIES)
        for (const principal of PRINCIPALS) out.push(await s.keywordSearch(terms, principal, 8));
      return out;
    };
    const before = await search(store);
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path = "${schema}"`);
      await client.query(
        `${BEFORE_POSTING_BLOCKS} DELETE FROM schema_migrations WHERE version >= ${postingBlocks.version};`,
      );
      const postings = Number((await client.query('SELECT count(*) AS n FROM keyword_postings')).rows[0]?.n);
      expect(postings).toBeGreaterThan(1000);
      const reopened = await openPostgresStore(url, { schema });
      try {
        const after = await search(reopened);
        expect(after).toEqual(before);
        expect(before.flat().length).toBeGreaterThan(0);
      } finally {
        await reopened.close();
      }
      expect(await chunkPostingMismatches(client, `"${schema}"`)).toEqual([]);
      const blocks = await client.query<{ blocks: string; postings: string }>(
        'SELECT count(*) AS blocks, sum(n) AS postings FROM keyword_blocks',
      );
      expect(Number(blocks.rows[0]?.postings)).toBe(postings);
      expect(Number(blocks.rows[0]?.blocks)).toBeLessThan(postings / 2);
      const gone = await client.query(
        "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'keyword_postings'",
      );
      expect(gone.rows).toEqual([]);
    } finally {
      await client.end();
    }
  }, 120_000);
});
