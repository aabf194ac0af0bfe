import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentWrite, Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import {
  ADMIN,
  ALICE,
  BOB,
  CAROL,
  type DocSpec,
  documentWrite,
  expectRanked,
  expectRejects,
  sorted,
  unitVector,
  VISIBILITY_CASES,
} from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Chapter summaries and quotes: written with their version, searchable through the principal filter (the document port). */
export function describeDocumentExtras(suite: ConformanceSuite): void {
  describe('summaries and quotes', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const keywords = (text: string): string =>
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_]+/gu, ' ')
        .trim();
    /** A write whose first chapter has `summary` and whose first chunk holds `quote`. */
    const withExtras = (
      spec: DocSpec,
      summary: string,
      quote: string,
      method: 'extractive' | `llm:${string}` = 'extractive',
    ): DocumentWrite => {
      const write = documentWrite(spec);
      return {
        ...write,
        extras: {
          summaries: [
            {
              chapterOrdinal: 0,
              title: 'Overview',
              text: summary,
              method,
              chunkIds: write.chunks.map((c) => c.id),
              keywordText: keywords(summary),
            },
          ],
          quotes: [{ chunkId: `${spec.docId}#0`, text: quote, keywordText: keywords(quote) }],
        },
      };
    };
    const next = random(21);
    const docs = {
      public: withExtras(
        { docId: 'public.md', chunks: [{ text: 'harbour quarterly public', vector: unitVector(next) }] },
        'harbour quarterly overview public',
        'harbour quote public',
      ),
      legal: withExtras(
        {
          docId: 'legal.md',
          acl: ['group:legal'],
          chunks: [{ text: 'harbour quarterly legal', vector: unitVector(next) }],
        },
        'harbour quarterly overview legal',
        'harbour quote legal',
        'llm:openai:gpt-test',
      ),
      bob: withExtras(
        { docId: 'bob.md', acl: ['user:bob'], chunks: [{ text: 'harbour quarterly bob', vector: unitVector(next) }] },
        'harbour quarterly overview bob',
        'harbour quote bob',
      ),
      secret: withExtras(
        {
          docId: 'secret.md',
          acl: ['group:board', 'user:dave'],
          chunks: [{ text: 'harbour quarterly secret', vector: unitVector(next) }],
        },
        'harbour quarterly overview secret secretword secretword secretword',
        'harbour quote secret secretword secretword',
      ),
    };
    const cases = VISIBILITY_CASES;

    beforeEach(async () => {
      for (const write of Object.values(docs)) await store.putDocument(write);
    });

    it.each(cases)('searchSummaries: %s', async (_, principal, visible) => {
      const hits = await store.searchSummaries(['harbour', 'overview'], principal, 10);
      expect(sorted(hits.map((hit) => hit.docId))).toEqual(visible);
      expectRanked(hits.map((hit) => ({ chunkId: hit.id, rank: hit.rank, score: hit.score })));
    });

    it.each(cases)('searchQuotes: %s', async (_, principal, visible) => {
      const hits = await store.searchQuotes(['harbour', 'quote'], principal, 10);
      expect(sorted(hits.map((hit) => hit.docId))).toEqual(visible);
      expectRanked(hits.map((hit) => ({ chunkId: hit.id, rank: hit.rank, score: hit.score })));
    });

    it('returns what was written, with the source chunks and the method', async () => {
      const [summary] = await store.searchSummaries(['legal'], ALICE, 5);
      expect(summary).toEqual({
        id: 'legal.md#summary-0',
        docId: 'legal.md',
        source: '/corpus/legal.md',
        docTitle: 'Title of legal.md',
        chapterOrdinal: 0,
        title: 'Overview',
        text: 'harbour quarterly overview legal',
        method: 'llm:openai:gpt-test',
        chunkIds: ['legal.md#0'],
        rank: 1,
        score: expect.any(Number),
      });
      expect(summary?.score).toBeGreaterThan(0);
      const [quote] = await store.searchQuotes(['legal'], ALICE, 5);
      expect(quote).toMatchObject({
        id: 'legal.md#quote-0',
        docId: 'legal.md',
        chunkId: 'legal.md#0',
        text: 'harbour quote legal',
        rank: 1,
      });
      expect(await store.documentExtrasInfo('legal.md')).toEqual({
        summaryMethod: 'llm:openai:gpt-test',
        summaries: 1,
        quotes: 1,
      });
    });

    it('filters before ranking and the limit: the best match of a hidden document never displaces a visible one', async () => {
      expect(await store.searchSummaries(['secretword'], CAROL, 10)).toEqual([]);
      expect(await store.searchQuotes(['secretword'], BOB, 10)).toEqual([]);
      expect((await store.searchSummaries(['secretword', 'public'], CAROL, 1)).map((hit) => hit.docId)).toEqual([
        'public.md',
      ]);
      expect((await store.searchQuotes(['secretword', 'public'], CAROL, 1)).map((hit) => hit.docId)).toEqual([
        'public.md',
      ]);
      expect((await store.searchSummaries(['secretword'], ADMIN, 1)).map((hit) => hit.docId)).toEqual(['secret.md']);
    });

    it('replaces the extras with the version and deletes them with the document', async () => {
      await store.putDocument(
        withExtras(
          { docId: 'public.md', contentHash: 'v2', chunks: [{ text: 'lighthouse', vector: unitVector(next) }] },
          'lighthouse overview',
          'lighthouse quote',
        ),
      );
      expect(
        await store
          .searchSummaries(['harbour', 'public'], ADMIN, 10)
          .then((hits) => hits.filter((hit) => hit.docId === 'public.md')),
      ).toEqual([]);
      expect(await store.searchQuotes(['public'], ADMIN, 10)).toEqual([]);
      expect((await store.searchSummaries(['lighthouse'], CAROL, 10)).map((hit) => hit.text)).toEqual([
        'lighthouse overview',
      ]);
      // A version written without extras has none, not the previous version's.
      await store.putDocument(
        documentWrite({
          docId: 'public.md',
          contentHash: 'v3',
          chunks: [{ text: 'lighthouse', vector: unitVector(next) }],
        }),
      );
      expect(await store.searchSummaries(['lighthouse'], ADMIN, 10)).toEqual([]);
      expect(await store.documentExtrasInfo('public.md')).toBeUndefined();

      expect(await store.deleteDocument('legal.md')).toBe(true);
      expect(await store.searchSummaries(['legal'], ADMIN, 10)).toEqual([]);
      expect(await store.searchQuotes(['legal'], ADMIN, 10)).toEqual([]);
      expect(await store.documentExtrasInfo('legal.md')).toBeUndefined();
    });

    it('fills the extras of a stored version afterwards, only for the same content hash', async () => {
      const bare = documentWrite({
        docId: 'old.md',
        contentHash: 'h1',
        chunks: [{ text: 'archived harbour', vector: unitVector(next) }],
      });
      await store.putDocument(bare);
      expect(await store.documentExtrasInfo('old.md')).toBeUndefined();
      const extras = {
        summaries: [
          {
            chapterOrdinal: 0,
            title: '',
            text: 'archived overview',
            method: 'extractive' as const,
            chunkIds: ['old.md#0'],
            keywordText: 'archived overview',
          },
        ],
        quotes: [{ chunkId: 'old.md#0', text: 'archived harbour', keywordText: 'archived harbour' }],
      };
      expect(await store.putDocumentExtras('old.md', 'stale-hash', extras)).toBe(false);
      expect(await store.putDocumentExtras('missing.md', 'h1', extras)).toBe(false);
      expect(await store.searchSummaries(['archived'], ADMIN, 10)).toEqual([]);
      expect(await store.putDocumentExtras('old.md', 'h1', extras)).toBe(true);
      // Written twice: replaced, not duplicated.
      expect(await store.putDocumentExtras('old.md', 'h1', extras)).toBe(true);
      expect((await store.searchSummaries(['archived'], ADMIN, 10)).map((hit) => hit.id)).toEqual(['old.md#summary-0']);
      expect((await store.searchQuotes(['archived'], ADMIN, 10)).map((hit) => hit.chunkId)).toEqual(['old.md#0']);
      expect(await store.documentExtrasInfo('old.md')).toEqual({
        summaryMethod: 'extractive',
        summaries: 1,
        quotes: 1,
      });
    });

    it('refuses a quote or summary that names a chunk of another document, and writes nothing', async () => {
      const write = withExtras(
        { docId: 'fresh.md', chunks: [{ text: 'fresh harbour', vector: unitVector(next) }] },
        'fresh overview',
        'fresh quote',
      );
      const foreignQuote: DocumentWrite = {
        ...write,
        extras: {
          summaries: write.extras?.summaries ?? [],
          quotes: [{ chunkId: 'public.md#0', text: 'x', keywordText: 'x' }],
        },
      };
      await expectRejects(store.putDocument(foreignQuote), 'invalid_input');
      expect(await store.getDocument('fresh.md')).toBeUndefined();
      await store.putDocument(
        documentWrite({
          docId: 'fresh.md',
          contentHash: 'h',
          chunks: [{ text: 'fresh harbour', vector: unitVector(next) }],
        }),
      );
      await expectRejects(
        store.putDocumentExtras('fresh.md', 'h', {
          summaries: [
            { chapterOrdinal: 0, title: '', text: 'x', method: 'extractive', chunkIds: ['bob.md#0'], keywordText: 'x' },
          ],
          quotes: [],
        }),
        'invalid_input',
      );
      expect(await store.documentExtrasInfo('fresh.md')).toBeUndefined();
    });
  });
}
