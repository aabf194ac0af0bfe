import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_QUERY_TERM_COUNT } from '../../store/search-terms.ts';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ADMIN, CAROL, docOf, documentWrite, expectRanked, ids, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** The keyword channel: BM25 over analysed terms, prefixes, identifiers, hostile syntax (the document port). */
export function describeKeywordSearch(suite: ConformanceSuite): void {
  describe('keyword search', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const next = random(6);
    beforeEach(async () => {
      await store.putDocument(
        documentWrite({
          docId: 'k.md',
          chunks: [
            { text: 'common words only here', vector: unitVector(next) },
            { text: 'common words and the zebra', vector: unitVector(next) },
            { text: 'common words again', vector: unitVector(next) },
            { text: 'common contract for the contractor', vector: unitVector(next) },
            { text: 'identifiers', keywords: 'ct_2024_0193 合同 v1.2 $total', vector: unitVector(next) },
          ],
        }),
      );
    });

    it('ranks the chunk with the rare term first, with positive descending scores', async () => {
      const hits = await store.keywordSearch(['common', 'zebra'], ADMIN, 10);
      expect(hits[0]?.chunkId).toBe('k.md#1');
      expect(hits).toHaveLength(4);
      expectRanked(hits);
      for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
      expect(await store.keywordSearch(['common', 'zebra'], ADMIN, 2)).toHaveLength(2);
    });

    it('treats a trailing * as a prefix', async () => {
      expect(ids(await store.keywordSearch(['contr*'], ADMIN, 10))).toEqual(['k.md#3']);
      expect(await store.keywordSearch(['contr'], ADMIN, 10)).toEqual([]);
    });

    it('keeps each given term as one token', async () => {
      expect(ids(await store.keywordSearch(['ct_2024_0193'], ADMIN, 10))).toEqual(['k.md#4']);
      expect(ids(await store.keywordSearch(['合同'], ADMIN, 10))).toEqual(['k.md#4']);
      expect(ids(await store.keywordSearch(['v1.2'], ADMIN, 10))).toEqual(['k.md#4']);
      expect(ids(await store.keywordSearch(['$total'], ADMIN, 10))).toEqual(['k.md#4']);
      expect(ids(await store.keywordSearch(['ct_2024*'], ADMIN, 10))).toEqual(['k.md#4']);
      expect(await store.keywordSearch(['ct'], ADMIN, 10)).toEqual([]);
      expect(await store.keywordSearch(['2024'], ADMIN, 10)).toEqual([]);
      expect(await store.keywordSearch(['合'], ADMIN, 10)).toEqual([]);
      expect(await store.keywordSearch(['v1'], ADMIN, 10)).toEqual([]);
    });

    it('weighs a term by how often the query repeats it, up to the bound', async () => {
      const next = random(26);
      await store.putDocument(
        documentWrite({
          docId: 'qtf.md',
          chunks: [
            { text: 'apple apple banana', vector: unitVector(next) },
            { text: 'apple banana banana', vector: unitVector(next) },
          ],
        }),
      );
      // The two chunks mirror each other, so the term the query repeats decides which comes first.
      expect(ids(await store.keywordSearch(['apple', 'apple', 'banana'], ADMIN, 10))).toEqual(['qtf.md#0', 'qtf.md#1']);
      expect(ids(await store.keywordSearch(['banana', 'apple', 'banana'], ADMIN, 10))).toEqual([
        'qtf.md#1',
        'qtf.md#0',
      ]);
      const once = await store.keywordSearch(['banana'], ADMIN, 10);
      const twice = await store.keywordSearch(['banana', 'banana'], ADMIN, 10);
      const many = await store.keywordSearch(Array<string>(MAX_QUERY_TERM_COUNT + 5).fill('banana'), ADMIN, 10);
      expect(ids(twice)).toEqual(ids(once));
      once.forEach((hit, i) => {
        expect(twice[i]?.score).toBeCloseTo(2 * hit.score, 9);
        expect(many[i]?.score).toBeCloseTo(MAX_QUERY_TERM_COUNT * hit.score, 9);
      });
      // A repeated prefix term counts the same way.
      const prefixOnce = await store.keywordSearch(['appl*'], ADMIN, 10);
      const prefixTwice = await store.keywordSearch(['appl*', 'appl*'], ADMIN, 10);
      expect(prefixTwice[0]?.score).toBeCloseTo(2 * (prefixOnce[0]?.score ?? 0), 9);
    });

    it('ranks the same for any limit and any principal, even with terms most chunks contain', async () => {
      const next = random(16);
      // 12 documents × 20 chunks; every chunk has "ubiquitous", a third "middling", three "scarce" (one public).
      for (let doc = 0; doc < 12; doc++) {
        const docId = `many-${String(doc).padStart(2, '0')}.md`;
        const chunks = Array.from({ length: 20 }, (_, i) => {
          const words = [
            'ubiquitous',
            ...Array.from({ length: 3 + ((doc * 20 + i) % 7) }, () => `filler${Math.floor(next() * 50)}`),
          ];
          if ((doc * 20 + i) % 3 === 0) words.push('middling');
          if ((doc === 1 && i === 4) || (doc === 3 && i === 7) || (doc === 5 && i === 0)) words.push('scarce');
          return { text: words.join(' '), vector: unitVector(next) };
        });
        await store.putDocument(documentWrite({ docId, acl: doc % 3 === 0 ? [] : ['group:legal'], chunks }));
      }
      const visibleToCarol = (chunkId: string) => Number(docOf(chunkId).slice(5, 7)) % 3 === 0;
      for (const terms of [
        ['ubiquitous', 'scarce'],
        ['ubiquitous', 'middling', 'scarce'],
        ['scarce', 'middling'],
        ['ubiquitous'],
      ]) {
        const everything = ids(await store.keywordSearch(terms, ADMIN, 1000));
        const carolAll = ids(await store.keywordSearch(terms, CAROL, 1000));
        expect(carolAll, terms.join(' ')).toEqual(everything.filter(visibleToCarol));
        for (const limit of [1, 3, 10, 40]) {
          expect(ids(await store.keywordSearch(terms, CAROL, limit)), `${terms.join(' ')} @${limit}`).toEqual(
            carolAll.slice(0, limit),
          );
          expect(ids(await store.keywordSearch(terms, ADMIN, limit)), `${terms.join(' ')} @${limit}`).toEqual(
            everything.slice(0, limit),
          );
        }
      }
      // The one scarce chunk Carol may see comes first, then chunks that only share the ubiquitous term.
      const carol = ids(await store.keywordSearch(['ubiquitous', 'scarce'], CAROL, 10));
      expect(carol[0]).toBe('many-03.md#7');
      expect(carol).toHaveLength(10);
    });

    it('is safe against query syntax in terms', async () => {
      const hostile = [
        '"',
        'a"b',
        'zebra" OR "common',
        'NEAR(common zebra)',
        '*',
        '(',
        ')',
        'keyword_text:common',
        '^common',
        '-common',
        '{common}',
        'AND',
        'NOT',
        '',
      ];
      for (const term of hostile) {
        const hits = await store.keywordSearch([term], ADMIN, 10);
        expect(Array.isArray(hits), term).toBe(true);
      }
      // Had the quote been interpreted, this would match every chunk containing "common".
      expect(await store.keywordSearch(['zebra" OR "common'], ADMIN, 10)).toEqual([]);
      expect(await store.keywordSearch([], ADMIN, 10)).toEqual([]);
    });
  });
}
