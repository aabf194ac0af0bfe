import { afterAll, expect, it } from 'vitest';
import { principalAclKeys, type Principal } from '../../domain/index.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { ADMIN, ALICE, BOB, documentWrite, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { bm25Reference as reference, type ReferenceRow as Row } from '../../testing/bm25-reference.ts';
import { keywordTokens } from './keyword-index.ts';
import { openPostgresStore } from './store.ts';

describeWithPostgres('postgres BM25 ranking', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it('ranks as full BM25 does, common terms only when the rarer ones fall short, for every reader', async () => {
    const schema = freshSchema('evident_bm25');
    schemas.push(schema);
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296;
    // Three tiers of words: one in ~40% of rows, a few in ~15%, many rare ones.
    const rare = Array.from({ length: 300 }, (_, i) => `rare${i}`);
    const text = () => {
      const words = Array.from(
        { length: 4 + Math.floor(next() * 12) },
        () => rare[Math.floor(next() * rare.length)] as string,
      );
      if (next() < 0.4) words.push(...Array.from({ length: 1 + Math.floor(next() * 3) }, () => 'common'));
      if (next() < 0.15) words.push('middle');
      return words.join(' ');
    };
    const store = await openPostgresStore(url, { schema });
    const rows: Row[] = [];
    try {
      for (let d = 0; d < 40; d++) {
        const acl = d % 4 === 0 ? ['group:legal'] : [];
        const chunks = Array.from({ length: 6 }, () => ({ text: text(), vector: unitVector(next) }));
        await store.putDocument(documentWrite({ docId: `doc-${String(d).padStart(2, '0')}.md`, acl, chunks }));
        chunks.forEach((chunk, ordinal) => {
          const tokens = keywordTokens(chunk.text);
          const tf = new Map<string, number>();
          for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
          rows.push({ id: `doc-${String(d).padStart(2, '0')}.md#${ordinal}`, acl, tf, length: tokens.length });
        });
      }
      const queries = [
        ['common', 'rare3'],
        ['common', 'rare5', 'rare7', 'rare8'],
        ['common', 'middle', 'rare7', 'rare9', 'rare10'],
        ['middle', 'rare1'],
        ['common', 'middle'],
        ['common'],
      ];
      for (const terms of queries) {
        for (const principal of [ADMIN, ALICE, BOB] as Principal[]) {
          for (const limit of [3, 10, 50]) {
            const hits = await store.keywordSearch(terms, principal, limit);
            expect(
              hits.map((hit) => hit.chunkId),
              `${terms.join(' ')} as ${principal.id}, ${limit}`,
            ).toEqual(reference(rows, terms, principalAclKeys(principal), limit));
          }
        }
      }
    } finally {
      await store.close();
    }
  }, 60_000);
});
