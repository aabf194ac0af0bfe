import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelHit, Chapter, Chunk, Principal, TableData } from '../domain/index.ts';
import { isEvidentError } from '../errors/index.ts';
import type { DocumentWrite, EmbedderInfo, Store } from '../store/store.ts';
import { seededRandom as random } from './seeded-random.ts';

/**
 * Opens a store for the conformance suite. Without an argument: a new, empty store. With the `location` of a
 * store the suite has closed: that same store again (for the persistence tests).
 */
export type OpenStore = (existing?: { location: string }) => Promise<Store>;

// ------------------------------------------------------------------ fixtures

const EMBEDDER: EmbedderInfo = { id: 'conformance-embedder', dimension: 8 };

const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
const ALICE: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };
const BOB: Principal = { id: 'bob', groups: [], roles: ['member'] };
const CAROL: Principal = { id: 'carol', groups: ['hr'], roles: ['member'] };
/** A user whose name equals a group name, and a group named like a user: entries must not cross kinds. */
const USER_NAMED_LEGAL: Principal = { id: 'legal', groups: ['bob'], roles: ['member'] };

/** Who sees which of the four ACL test documents (public.md, legal.md for group legal, bob.md for bob, secret.md for nobody). */
const VISIBILITY_CASES: [string, Principal, string[]][] = [
  ['admin sees everything', ADMIN, ['bob.md', 'legal.md', 'public.md', 'secret.md']],
  ['group match', ALICE, ['legal.md', 'public.md']],
  ['user match', BOB, ['bob.md', 'public.md']],
  ['no match sees public only', CAROL, ['public.md']],
  ['user and group entries do not cross', USER_NAMED_LEGAL, ['public.md']],
];

function unitVector(next: () => number, dimension = EMBEDDER.dimension): Float32Array {
  const vector = new Float32Array(dimension);
  let norm = 0;
  for (let d = 0; d < dimension; d++) {
    const value = next() * 2 - 1;
    vector[d] = value;
    norm += value * value;
  }
  for (let d = 0; d < dimension; d++) vector[d] = (vector[d] as number) / Math.sqrt(norm);
  return vector;
}

interface ChunkSpec {
  text: string;
  /** Analysed keyword text; defaults to the lowercased words of `text`. */
  keywords?: string;
  vector: Float32Array;
}

interface DocSpec {
  docId: string;
  chunks: ChunkSpec[];
  acl?: string[];
  contentHash?: string;
  tables?: TableData[];
  chapters?: Chapter[];
  embedder?: EmbedderInfo;
  tags?: string[];
  pageCount?: number;
}

function documentWrite(spec: DocSpec): DocumentWrite {
  let offset = 0;
  const chunks: Chunk[] = spec.chunks.map((chunk, ordinal) => {
    const startOffset = offset;
    offset += chunk.text.length + 1;
    return {
      id: `${spec.docId}#${ordinal}`,
      docId: spec.docId,
      ordinal,
      text: chunk.text,
      headingPath: ['Title', `Section ${ordinal}`],
      ...(ordinal % 2 === 1 ? { page: ordinal } : {}),
      startOffset,
      endOffset: startOffset + chunk.text.length,
    };
  });
  return {
    document: {
      docId: spec.docId,
      source: `/corpus/${spec.docId}`,
      title: `Title of ${spec.docId}`,
      type: 'markdown',
      contentHash: spec.contentHash ?? `hash-${spec.docId}`,
      bytes: offset,
      acl: spec.acl ?? [],
      tags: spec.tags ?? [],
      ...(spec.pageCount === undefined ? {} : { pageCount: spec.pageCount }),
    },
    chunks,
    keywordText: spec.chunks.map((chunk) => chunk.keywords ?? chunk.text.toLowerCase().replace(/[^\p{L}\p{N}_]+/gu, ' ').trim()),
    vectors: spec.chunks.map((chunk) => chunk.vector),
    embedder: spec.embedder ?? EMBEDDER,
    chapters: spec.chapters ?? [
      { ordinal: 0, title: `Chapter of ${spec.docId}`, headingPath: ['Title'], startOffset: 0, endOffset: offset },
    ],
    tables: spec.tables ?? [],
  };
}

const ordersTable = (title = 'orders'): TableData => ({
  title,
  columns: [
    { name: 'order id', type: 'integer' },
    { name: 'amount', type: 'real' },
    { name: 'customer', type: 'text' },
    { name: 'paid', type: 'boolean' },
  ],
  rows: [
    [1, 10.5, 'ACME', true],
    [2, 20, 'Globex', false],
    [3, null, 'Initech', null],
  ],
});

const badTable = (): TableData => ({
  title: 'broken',
  columns: [{ name: 'n', type: 'integer' }],
  rows: [[1], ['not a number']],
});

const cosine = (a: Float32Array, b: Float32Array): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let d = 0; d < a.length; d++) {
    dot += (a[d] as number) * (b[d] as number);
    na += (a[d] as number) ** 2;
    nb += (b[d] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

const ids = (hits: readonly { chunkId: string }[]): string[] => hits.map((hit) => hit.chunkId);
const docOf = (chunkId: string): string => chunkId.slice(0, chunkId.lastIndexOf('#'));
const sorted = (values: Iterable<string>): string[] => [...values].sort();

function expectRanked(hits: readonly ChannelHit[]): void {
  hits.forEach((hit, i) => {
    expect(hit.rank).toBe(i + 1);
    if (i > 0) expect(hit.score).toBeLessThanOrEqual((hits[i - 1] as ChannelHit).score);
  });
}

async function expectRejects(promise: Promise<unknown>, code?: string): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught ?? new Error('rejected with nothing'),
  );
  expect(error, 'expected the call to fail').toBeDefined();
  if (code !== undefined) {
    expect(isEvidentError(error) ? error.code : error).toBe(code);
  }
}

// ------------------------------------------------------------------ the suite

/**
 * The behaviour every `Store` backend must show. Uses the port only, so the Postgres backend runs it unchanged.
 */
export function describeStoreConformance(name: string, open: OpenStore): void {
  describe(`Store conformance: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    // -------------------------------------------------------------- documents

    describe('documents', () => {
      it('starts empty', async () => {
        expect(await store.listDocuments(ADMIN)).toEqual([]);
        expect(await store.getDocument('nothing.md')).toBeUndefined();
        expect(await store.embedderInfo()).toBeUndefined();
        expect(await store.vectorSearch(new Float32Array(EMBEDDER.dimension), ADMIN, 5)).toEqual([]);
        expect(await store.keywordSearch(['anything'], ADMIN, 5)).toEqual([]);
        expect(await store.stats()).toEqual({ documents: 0, chunks: 0, tables: 0, users: 0, embedder: undefined });
      });

      it('puts, gets, lists and deletes documents', async () => {
        const next = random(1);
        const write = documentWrite({
          docId: 'docs/guide.md',
          acl: ['group:legal', 'user:bob'],
          tags: ['guide', 'howto'],
          pageCount: 3,
          chunks: [
            { text: 'Install the engine', vector: unitVector(next) },
            { text: 'Configure the engine', vector: unitVector(next) },
          ],
        });
        await store.putDocument(write);
        await store.putDocument(documentWrite({ docId: 'a.md', chunks: [{ text: 'first', vector: unitVector(next) }] }));

        const record = await store.getDocument('docs/guide.md');
        expect(record).toMatchObject({
          ...write.document,
          acl: ['group:legal', 'user:bob'],
          chunkCount: 2,
        });
        expect(Number.isNaN(Date.parse(record?.ingestedAt ?? ''))).toBe(false);
        expect((await store.listDocuments(ADMIN)).map((doc) => doc.docId)).toEqual(['a.md', 'docs/guide.md']);

        const chunks = await store.getChunks(['docs/guide.md#1', 'docs/guide.md#0'], ADMIN);
        expect(chunks).toEqual([
          { ...write.chunks[1], source: '/corpus/docs/guide.md', title: 'Title of docs/guide.md' },
          { ...write.chunks[0], source: '/corpus/docs/guide.md', title: 'Title of docs/guide.md' },
        ]);

        expect(await store.deleteDocument('docs/guide.md')).toBe(true);
        expect(await store.deleteDocument('docs/guide.md')).toBe(false);
        expect(await store.getDocument('docs/guide.md')).toBeUndefined();
        expect(await store.getChunks(['docs/guide.md#0'], ADMIN)).toEqual([]);
        expect(await store.keywordSearch(['configure'], ADMIN, 10)).toEqual([]);
        expect(ids(await store.vectorSearch(write.vectors[0] as Float32Array, ADMIN, 10))).toEqual(['a.md#0']);
        expect(await store.listChapters('docs/guide.md', ADMIN)).toEqual([]);
        expect((await store.listDocuments(ADMIN)).map((doc) => doc.docId)).toEqual(['a.md']);
      });

      it('lists chapters in order', async () => {
        const chapters: Chapter[] = [
          { ordinal: 0, title: 'Intro', headingPath: ['Intro'], startOffset: 0, endOffset: 10, page: 1 },
          { ordinal: 1, title: 'Usage', headingPath: ['Usage'], startOffset: 10, endOffset: 20 },
        ];
        await store.putDocument(
          documentWrite({ docId: 'c.md', chapters, chunks: [{ text: 'intro usage', vector: unitVector(random(2)) }] }),
        );
        expect(await store.listChapters('c.md', ADMIN)).toEqual(chapters);
        expect(await store.listChapters('missing.md', ADMIN)).toEqual([]);
      });

      it('replaces a document version completely', async () => {
        const next = random(3);
        const v1 = documentWrite({
          docId: 'policy.md',
          contentHash: 'v1',
          chunks: [
            { text: 'old alpha clause', vector: unitVector(next) },
            { text: 'old beta clause', vector: unitVector(next) },
            { text: 'old gamma clause', vector: unitVector(next) },
          ],
          tables: [ordersTable('old orders')],
        });
        await store.putDocument(v1);
        const v2 = documentWrite({
          docId: 'policy.md',
          contentHash: 'v2',
          acl: ['group:legal'],
          chunks: [
            { text: 'new delta clause', vector: unitVector(next) },
            { text: 'new epsilon clause', vector: unitVector(next) },
          ],
          chapters: [{ ordinal: 0, title: 'New chapter', headingPath: ['New'], startOffset: 0, endOffset: 5 }],
        });
        await store.putDocument(v2);

        expect(await store.getDocument('policy.md')).toMatchObject({ contentHash: 'v2', chunkCount: 2, acl: ['group:legal'] });
        expect((await store.getChunks(['policy.md#0', 'policy.md#1', 'policy.md#2'], ADMIN)).map((c) => c.id)).toEqual([
          'policy.md#0',
          'policy.md#1',
        ]);
        expect((await store.getChunks(['policy.md#0'], ADMIN))[0]?.text).toBe('new delta clause');
        expect(await store.keywordSearch(['alpha'], ADMIN, 10)).toEqual([]);
        expect(ids(await store.keywordSearch(['epsilon'], ADMIN, 10))).toEqual(['policy.md#1']);
        const nearOld = await store.vectorSearch(v1.vectors[2] as Float32Array, ADMIN, 10);
        expect(sorted(ids(nearOld))).toEqual(['policy.md#0', 'policy.md#1']);
        expect((await store.listChapters('policy.md', ADMIN)).map((chapter) => chapter.title)).toEqual(['New chapter']);
        expect(await store.listTables(ADMIN)).toEqual([]);
        // The new ACL applies: a principal outside it no longer sees the document.
        expect(await store.listDocuments(CAROL)).toEqual([]);
        expect(await store.keywordSearch(['clause'], CAROL, 10)).toEqual([]);
        expect((await store.stats()).chunks).toBe(2);
      });
    });

    // -------------------------------------------------------------- atomicity

    describe('atomic writes', () => {
      const next = random(4);
      const v1 = documentWrite({
        docId: 'contract.md',
        contentHash: 'v1',
        chunks: [
          { text: 'original indemnity clause', vector: unitVector(next) },
          { text: 'original termination clause', vector: unitVector(next) },
        ],
        tables: [ordersTable()],
      });
      const v2Base = {
        docId: 'contract.md',
        contentHash: 'v2',
        acl: ['group:legal'],
        chunks: [
          { text: 'replacement warranty clause', vector: unitVector(next) },
          { text: 'replacement liability clause', vector: unitVector(next) },
          { text: 'replacement venue clause', vector: unitVector(next) },
        ],
      };

      async function expectV1Intact(): Promise<void> {
        const before = await store.getDocument('contract.md');
        expect(before).toMatchObject({ contentHash: 'v1', chunkCount: 2, acl: [] });
        const chunks = await store.getChunks(['contract.md#0', 'contract.md#1', 'contract.md#2'], CAROL);
        expect(chunks.map((chunk) => chunk.text)).toEqual(['original indemnity clause', 'original termination clause']);
        expect(ids(await store.keywordSearch(['indemnity'], CAROL, 10))).toEqual(['contract.md#0']);
        expect(await store.keywordSearch(['warranty'], ADMIN, 10)).toEqual([]);
        expect(ids(await store.vectorSearch(v1.vectors[1] as Float32Array, CAROL, 1))).toEqual(['contract.md#1']);
        expect(sorted(ids(await store.vectorSearch(v1.vectors[1] as Float32Array, ADMIN, 10)))).toEqual([
          'contract.md#0',
          'contract.md#1',
        ]);
        expect((await store.listChapters('contract.md', CAROL)).map((chapter) => chapter.title)).toEqual([
          'Chapter of contract.md',
        ]);
        expect((await store.listTables(CAROL)).map((table) => [table.title, table.rowCount])).toEqual([['orders', 3]]);
        expect((await store.listDocuments(CAROL)).map((doc) => doc.docId)).toEqual(['contract.md']);
        expect(await store.stats()).toMatchObject({ documents: 1, chunks: 2, tables: 1 });
      }

      it('keeps the previous version when a table row does not fit its column types', async () => {
        await store.putDocument(v1);
        await expectRejects(store.putDocument(documentWrite({ ...v2Base, tables: [ordersTable('fine'), badTable()] })));
        await expectV1Intact();
      });

      it('keeps the previous version when a vector has the wrong length', async () => {
        await store.putDocument(v1);
        const write = documentWrite(v2Base);
        write.vectors[2] = new Float32Array(EMBEDDER.dimension + 1);
        await expectRejects(store.putDocument(write));
        await expectV1Intact();
      });

      it('keeps the previous version when keyword texts do not match the chunks', async () => {
        await store.putDocument(v1);
        const write = documentWrite(v2Base);
        write.keywordText.pop();
        await expectRejects(store.putDocument(write));
        await expectV1Intact();
      });

      it('leaves no trace of a new document whose write fails', async () => {
        await store.putDocument(v1);
        await expectRejects(
          store.putDocument(documentWrite({ ...v2Base, docId: 'other.md', tables: [badTable()] })),
        );
        expect(await store.getDocument('other.md')).toBeUndefined();
        expect(await store.keywordSearch(['warranty'], ADMIN, 10)).toEqual([]);
        await expectV1Intact();
      });
    });

    // -------------------------------------------------------------- access control

    describe('principal filter', () => {
      const next = random(5);
      const docs = {
        public: documentWrite({
          docId: 'public.md',
          chunks: [{ text: 'quarterly report public summary', vector: unitVector(next) }],
          tables: [ordersTable('public orders')],
        }),
        legal: documentWrite({
          docId: 'legal.md',
          acl: ['group:legal'],
          chunks: [{ text: 'quarterly report legal memo', vector: unitVector(next) }],
          tables: [ordersTable('legal orders')],
        }),
        bob: documentWrite({
          docId: 'bob.md',
          acl: ['user:bob'],
          chunks: [{ text: 'quarterly report bob notes', vector: unitVector(next) }],
          tables: [ordersTable('bob orders')],
        }),
        secret: documentWrite({
          docId: 'secret.md',
          acl: ['group:board', 'user:dave'],
          chunks: [{ text: 'quarterly report secretword merger', vector: unitVector(next) }],
          tables: [ordersTable('secret orders')],
        }),
      };
      const cases = VISIBILITY_CASES;

      beforeEach(async () => {
        for (const write of Object.values(docs)) await store.putDocument(write);
      });

      it.each(cases)('listDocuments: %s', async (_, principal, visible) => {
        expect((await store.listDocuments(principal)).map((doc) => doc.docId)).toEqual(visible);
      });

      it.each(cases)('keywordSearch: %s', async (_, principal, visible) => {
        const hits = await store.keywordSearch(['quarterly', 'report'], principal, 10);
        expect(sorted(hits.map((hit) => docOf(hit.chunkId)))).toEqual(visible);
        expectRanked(hits);
      });

      it.each(cases)('vectorSearch: %s', async (_, principal, visible) => {
        // Query with the secret document's own vector: the most similar chunk of all, unless filtered.
        const hits = await store.vectorSearch(docs.secret.vectors[0] as Float32Array, principal, 10);
        expect(sorted(hits.map((hit) => docOf(hit.chunkId)))).toEqual(visible);
        expectRanked(hits);
      });

      it.each(cases)('getChunks: %s', async (_, principal, visible) => {
        const all = ['public.md#0', 'legal.md#0', 'bob.md#0', 'secret.md#0'];
        expect(sorted((await store.getChunks(all, principal)).map((chunk) => chunk.docId))).toEqual(visible);
      });

      it.each(cases)('listChapters: %s', async (_, principal, visible) => {
        for (const docId of ['public.md', 'legal.md', 'bob.md', 'secret.md']) {
          const chapters = await store.listChapters(docId, principal);
          expect(chapters.length, docId).toBe(visible.includes(docId) ? 1 : 0);
        }
      });

      it.each(cases)('listTables: %s', async (_, principal, visible) => {
        expect(sorted((await store.listTables(principal)).map((table) => table.docId))).toEqual(visible);
      });

      it('hides unauthorised chunks even when they are the only match', async () => {
        expect(await store.keywordSearch(['secretword'], CAROL, 10)).toEqual([]);
        expect(await store.keywordSearch(['merger*'], ALICE, 10)).toEqual([]);
        expect(ids(await store.keywordSearch(['secretword'], ADMIN, 10))).toEqual(['secret.md#0']);
        expect(await store.listChapters('secret.md', BOB)).toEqual([]);
      });

      it('applies the filter before the limit', async () => {
        // If the filter ran after taking the top 1, Carol would get nothing here.
        expect(ids(await store.vectorSearch(docs.secret.vectors[0] as Float32Array, CAROL, 1))).toEqual(['public.md#0']);
        const legalFirst = await store.keywordSearch(['legal', 'quarterly'], CAROL, 1);
        expect(ids(legalFirst)).toEqual(['public.md#0']);
      });
    });

    // -------------------------------------------------------------- summaries and quotes

    describe('summaries and quotes', () => {
      const keywords = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}_]+/gu, ' ').trim();
      /** A write whose first chapter has `summary` and whose first chunk holds `quote`. */
      const withExtras = (spec: DocSpec, summary: string, quote: string, method: 'extractive' | `llm:${string}` = 'extractive'): DocumentWrite => {
        const write = documentWrite(spec);
        return {
          ...write,
          extras: {
            summaries: [
              { chapterOrdinal: 0, title: 'Overview', text: summary, method, chunkIds: write.chunks.map((c) => c.id), keywordText: keywords(summary) },
            ],
            quotes: [{ chunkId: `${spec.docId}#0`, text: quote, keywordText: keywords(quote) }],
          },
        };
      };
      const next = random(21);
      const docs = {
        public: withExtras({ docId: 'public.md', chunks: [{ text: 'harbour quarterly public', vector: unitVector(next) }] }, 'harbour quarterly overview public', 'harbour quote public'),
        legal: withExtras(
          { docId: 'legal.md', acl: ['group:legal'], chunks: [{ text: 'harbour quarterly legal', vector: unitVector(next) }] },
          'harbour quarterly overview legal',
          'harbour quote legal',
          'llm:openai:gpt-test',
        ),
        bob: withExtras({ docId: 'bob.md', acl: ['user:bob'], chunks: [{ text: 'harbour quarterly bob', vector: unitVector(next) }] }, 'harbour quarterly overview bob', 'harbour quote bob'),
        secret: withExtras(
          { docId: 'secret.md', acl: ['group:board', 'user:dave'], chunks: [{ text: 'harbour quarterly secret', vector: unitVector(next) }] },
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
        expect(quote).toMatchObject({ id: 'legal.md#quote-0', docId: 'legal.md', chunkId: 'legal.md#0', text: 'harbour quote legal', rank: 1 });
        expect(await store.documentExtrasInfo('legal.md')).toEqual({ summaryMethod: 'llm:openai:gpt-test', summaries: 1, quotes: 1 });
      });

      it('filters before ranking and the limit: the best match of a hidden document never displaces a visible one', async () => {
        expect((await store.searchSummaries(['secretword'], CAROL, 10))).toEqual([]);
        expect((await store.searchQuotes(['secretword'], BOB, 10))).toEqual([]);
        expect((await store.searchSummaries(['secretword', 'public'], CAROL, 1)).map((hit) => hit.docId)).toEqual(['public.md']);
        expect((await store.searchQuotes(['secretword', 'public'], CAROL, 1)).map((hit) => hit.docId)).toEqual(['public.md']);
        expect((await store.searchSummaries(['secretword'], ADMIN, 1)).map((hit) => hit.docId)).toEqual(['secret.md']);
      });

      it('replaces the extras with the version and deletes them with the document', async () => {
        await store.putDocument(withExtras({ docId: 'public.md', contentHash: 'v2', chunks: [{ text: 'lighthouse', vector: unitVector(next) }] }, 'lighthouse overview', 'lighthouse quote'));
        expect(await store.searchSummaries(['harbour', 'public'], ADMIN, 10).then((hits) => hits.filter((hit) => hit.docId === 'public.md'))).toEqual([]);
        expect(await store.searchQuotes(['public'], ADMIN, 10)).toEqual([]);
        expect((await store.searchSummaries(['lighthouse'], CAROL, 10)).map((hit) => hit.text)).toEqual(['lighthouse overview']);
        // A version written without extras has none, not the previous version's.
        await store.putDocument(documentWrite({ docId: 'public.md', contentHash: 'v3', chunks: [{ text: 'lighthouse', vector: unitVector(next) }] }));
        expect(await store.searchSummaries(['lighthouse'], ADMIN, 10)).toEqual([]);
        expect(await store.documentExtrasInfo('public.md')).toBeUndefined();

        expect(await store.deleteDocument('legal.md')).toBe(true);
        expect(await store.searchSummaries(['legal'], ADMIN, 10)).toEqual([]);
        expect(await store.searchQuotes(['legal'], ADMIN, 10)).toEqual([]);
        expect(await store.documentExtrasInfo('legal.md')).toBeUndefined();
      });

      it('fills the extras of a stored version afterwards, only for the same content hash', async () => {
        const bare = documentWrite({ docId: 'old.md', contentHash: 'h1', chunks: [{ text: 'archived harbour', vector: unitVector(next) }] });
        await store.putDocument(bare);
        expect(await store.documentExtrasInfo('old.md')).toBeUndefined();
        const extras = {
          summaries: [{ chapterOrdinal: 0, title: '', text: 'archived overview', method: 'extractive' as const, chunkIds: ['old.md#0'], keywordText: 'archived overview' }],
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
        expect(await store.documentExtrasInfo('old.md')).toEqual({ summaryMethod: 'extractive', summaries: 1, quotes: 1 });
      });

      it('refuses a quote or summary that names a chunk of another document, and writes nothing', async () => {
        const write = withExtras({ docId: 'fresh.md', chunks: [{ text: 'fresh harbour', vector: unitVector(next) }] }, 'fresh overview', 'fresh quote');
        const foreignQuote: DocumentWrite = { ...write, extras: { summaries: write.extras?.summaries ?? [], quotes: [{ chunkId: 'public.md#0', text: 'x', keywordText: 'x' }] } };
        await expectRejects(store.putDocument(foreignQuote), 'invalid_input');
        expect(await store.getDocument('fresh.md')).toBeUndefined();
        await store.putDocument(documentWrite({ docId: 'fresh.md', contentHash: 'h', chunks: [{ text: 'fresh harbour', vector: unitVector(next) }] }));
        await expectRejects(
          store.putDocumentExtras('fresh.md', 'h', { summaries: [{ chapterOrdinal: 0, title: '', text: 'x', method: 'extractive', chunkIds: ['bob.md#0'], keywordText: 'x' }], quotes: [] }),
          'invalid_input',
        );
        expect(await store.documentExtrasInfo('fresh.md')).toBeUndefined();
      });
    });

    // -------------------------------------------------------------- keyword channel

    describe('keyword search', () => {
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

      it('ranks the same for any limit and any principal, even with terms most chunks contain', async () => {
        const next = random(16);
        // 12 documents × 20 chunks; every chunk has "ubiquitous", a third "middling", three "scarce" (one public).
        for (let doc = 0; doc < 12; doc++) {
          const docId = `many-${String(doc).padStart(2, '0')}.md`;
          const chunks = Array.from({ length: 20 }, (_, i) => {
            const words = ['ubiquitous', ...Array.from({ length: 3 + ((doc * 20 + i) % 7) }, () => `filler${Math.floor(next() * 50)}`)];
            if ((doc * 20 + i) % 3 === 0) words.push('middling');
            if ((doc === 1 && i === 4) || (doc === 3 && i === 7) || (doc === 5 && i === 0)) words.push('scarce');
            return { text: words.join(' '), vector: unitVector(next) };
          });
          await store.putDocument(documentWrite({ docId, acl: doc % 3 === 0 ? [] : ['group:legal'], chunks }));
        }
        const visibleToCarol = (chunkId: string) => Number(docOf(chunkId).slice(5, 7)) % 3 === 0;
        for (const terms of [['ubiquitous', 'scarce'], ['ubiquitous', 'middling', 'scarce'], ['scarce', 'middling'], ['ubiquitous']]) {
          const everything = ids(await store.keywordSearch(terms, ADMIN, 1000));
          const carolAll = ids(await store.keywordSearch(terms, CAROL, 1000));
          expect(carolAll, terms.join(' ')).toEqual(everything.filter(visibleToCarol));
          for (const limit of [1, 3, 10, 40]) {
            expect(ids(await store.keywordSearch(terms, CAROL, limit)), `${terms.join(' ')} @${limit}`).toEqual(carolAll.slice(0, limit));
            expect(ids(await store.keywordSearch(terms, ADMIN, limit)), `${terms.join(' ')} @${limit}`).toEqual(everything.slice(0, limit));
          }
        }
        // The one scarce chunk Carol may see comes first, then chunks that only share the ubiquitous term.
        const carol = ids(await store.keywordSearch(['ubiquitous', 'scarce'], CAROL, 10));
        expect(carol[0]).toBe('many-03.md#7');
        expect(carol).toHaveLength(10);
      });

      it('is safe against query syntax in terms', async () => {
        const hostile = ['"', 'a"b', 'zebra" OR "common', 'NEAR(common zebra)', '*', '(', ')', 'keyword_text:common', '^common', '-common', '{common}', 'AND', 'NOT', ''];
        for (const term of hostile) {
          const hits = await store.keywordSearch([term], ADMIN, 10);
          expect(Array.isArray(hits), term).toBe(true);
        }
        // Had the quote been interpreted, this would match every chunk containing "common".
        expect(await store.keywordSearch(['zebra" OR "common'], ADMIN, 10)).toEqual([]);
        expect(await store.keywordSearch([], ADMIN, 10)).toEqual([]);
      });
    });

    // -------------------------------------------------------------- vector channel

    describe('vector search', () => {
      it('matches a brute-force cosine reference, with and without a filter', async () => {
        const next = random(7);
        const vectors = new Map<string, Float32Array>();
        const acls: Record<string, string[]> = { 'v0.md': [], 'v1.md': ['group:legal'], 'v2.md': ['group:board'] };
        for (const [docId, acl] of Object.entries(acls)) {
          const chunks = Array.from({ length: 40 }, (_, i) => ({ text: `chunk ${i} of ${docId}`, vector: unitVector(next) }));
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

    // -------------------------------------------------------------- embedder binding

    describe('embedder binding', () => {
      it('refuses vectors of another embedder and writes nothing', async () => {
        const next = random(9);
        await store.putDocument(documentWrite({ docId: 'a.md', chunks: [{ text: 'alpha', vector: unitVector(next) }] }));
        expect(await store.embedderInfo()).toEqual(EMBEDDER);
        const other: EmbedderInfo = { id: 'other-embedder', dimension: EMBEDDER.dimension };
        await expectRejects(
          store.putDocument(
            documentWrite({ docId: 'b.md', embedder: other, chunks: [{ text: 'beta', vector: unitVector(next) }] }),
          ),
          'embedder_mismatch',
        );
        const resized: EmbedderInfo = { id: EMBEDDER.id, dimension: 4 };
        await expectRejects(
          store.putDocument(
            documentWrite({ docId: 'a.md', embedder: resized, chunks: [{ text: 'gamma', vector: unitVector(next, 4) }] }),
          ),
          'embedder_mismatch',
        );
        expect(await store.getDocument('b.md')).toBeUndefined();
        expect(await store.keywordSearch(['beta'], ADMIN, 5)).toEqual([]);
        expect(await store.keywordSearch(['gamma'], ADMIN, 5)).toEqual([]);
        expect(ids(await store.keywordSearch(['alpha'], ADMIN, 5))).toEqual(['a.md#0']);
        expect(await store.embedderInfo()).toEqual(EMBEDDER);
      });

      it('replaces every vector and the binding at once', async () => {
        const next = random(10);
        for (const docId of ['a.md', 'b.md']) {
          await store.putDocument(
            documentWrite({
              docId,
              acl: docId === 'b.md' ? ['group:legal'] : [],
              chunks: [0, 1, 2].map((i) => ({ text: `${docId} part ${i}`, vector: unitVector(next) })),
            }),
          );
        }
        const chunkIds: string[] = [];
        for await (const batch of store.chunkTexts(2)) chunkIds.push(...batch.map((chunk) => chunk.id));
        expect(sorted(chunkIds)).toEqual(['a.md#0', 'a.md#1', 'a.md#2', 'b.md#0', 'b.md#1', 'b.md#2']);

        const reindexed: EmbedderInfo = { id: 'reindexed-embedder', dimension: 4 };
        const fresh = new Map(chunkIds.map((id) => [id, unitVector(next, 4)]));

        // Missing vectors: refused, the old binding and vectors stay.
        const partial = new Map(fresh);
        partial.delete('b.md#1');
        await expectRejects(store.replaceVectors(reindexed, partial));
        expect(await store.embedderInfo()).toEqual(EMBEDDER);
        expect(await store.vectorSearch(unitVector(next), ADMIN, 3)).toHaveLength(3);

        await store.replaceVectors(reindexed, fresh);
        expect(await store.embedderInfo()).toEqual(reindexed);
        const target = fresh.get('b.md#1') as Float32Array;
        expect((await store.vectorSearch(target, ADMIN, 1))[0]?.chunkId).toBe('b.md#1');
        expect((await store.vectorSearch(target, ADMIN, 1))[0]?.score).toBeCloseTo(1, 5);
        expect(docOf((await store.vectorSearch(target, CAROL, 1))[0]?.chunkId ?? '')).toBe('a.md');
        await expectRejects(store.vectorSearch(unitVector(next), ADMIN, 3));

        await expectRejects(
          store.putDocument(documentWrite({ docId: 'c.md', chunks: [{ text: 'c', vector: unitVector(next) }] })),
          'embedder_mismatch',
        );
        await store.putDocument(
          documentWrite({ docId: 'c.md', embedder: reindexed, chunks: [{ text: 'c', vector: unitVector(next, 4) }] }),
        );
        expect((await store.stats()).chunks).toBe(7);
      });
    });

    // -------------------------------------------------------------- tables

    describe('tables', () => {
      it('registers tables with unique SQL names and drops them with their document', async () => {
        const next = random(11);
        await store.putDocument(
          documentWrite({
            docId: 'data/sales.xlsx',
            chunks: [{ text: 'sales rows', vector: unitVector(next) }],
            tables: [ordersTable('sales / Q1'), ordersTable('sales / Q2')],
          }),
        );
        await store.putDocument(
          documentWrite({ docId: 'data/sales.csv', chunks: [{ text: 'sales csv', vector: unitVector(next) }], tables: [ordersTable('sales / Q1')] }),
        );
        const tables = await store.listTables(ADMIN);
        expect(tables.map((table) => [table.docId, table.title])).toEqual([
          ['data/sales.csv', 'sales / Q1'],
          ['data/sales.xlsx', 'sales / Q1'],
          ['data/sales.xlsx', 'sales / Q2'],
        ]);
        for (const table of tables) {
          expect(table.sqlName).toMatch(/^[a-z_][a-z0-9_]*$/);
          expect(table.columns).toEqual(ordersTable().columns);
          expect(table.rowCount).toBe(3);
        }
        expect(new Set(tables.map((table) => table.sqlName)).size).toBe(3);
        expect((await store.stats()).tables).toBe(3);

        expect(await store.deleteDocument('data/sales.xlsx')).toBe(true);
        expect((await store.listTables(ADMIN)).map((table) => table.docId)).toEqual(['data/sales.csv']);
        // Replacing with a version without tables drops the old ones.
        await store.putDocument(documentWrite({ docId: 'data/sales.csv', chunks: [{ text: 'no table now', vector: unitVector(next) }] }));
        expect(await store.listTables(ADMIN)).toEqual([]);
        expect((await store.stats()).tables).toBe(0);
      });

      it('makes duplicate or empty column names usable', async () => {
        await store.putDocument(
          documentWrite({
            docId: 'odd.csv',
            chunks: [{ text: 'odd', vector: unitVector(random(12)) }],
            tables: [
              {
                title: 'odd',
                columns: [
                  { name: 'Name', type: 'text' },
                  { name: 'name', type: 'text' },
                  { name: '', type: 'integer' },
                  { name: 'say "hi"', type: 'text' },
                ],
                rows: [['a', 'b', 1, 'c']],
              },
            ],
          }),
        );
        const [table] = await store.listTables(ADMIN);
        const names = table?.columns.map((column) => column.name) ?? [];
        expect(names).toHaveLength(4);
        expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(4);
        expect(names.every((name) => name.length > 0)).toBe(true);
        expect(names[0]).toBe('Name');
        expect(names[3]).toBe('say "hi"');
      });
    });

    // -------------------------------------------------------------- read-only table queries

    describe('table queries', () => {
      const LIMITS = { maxRows: 100, timeoutMs: 10_000 };
      const salesTable: TableData = {
        title: 'sales',
        columns: [
          { name: 'region', type: 'text' },
          { name: 'amount usd', type: 'real' },
          { name: 'units', type: 'integer' },
        ],
        rows: [
          ['EMEA', 100.5, 1],
          ['NA', 20.25, 2],
          ['EMEA', 300, 3],
          ['APAC', 7.75, 4],
          ['NA', 80, 5],
          ['EMEA', null, 6],
        ],
      };
      let sales = '';
      let publicOrders = '';
      let secretOrders = '';

      beforeEach(async () => {
        const next = random(17);
        await store.putDocument(
          documentWrite({ docId: 'sales.csv', chunks: [{ text: 'sales rows', vector: unitVector(next) }], tables: [salesTable] }),
        );
        await store.putDocument(
          documentWrite({ docId: 'orders.csv', chunks: [{ text: 'order rows', vector: unitVector(next) }], tables: [ordersTable()] }),
        );
        await store.putDocument(
          documentWrite({
            docId: 'secret.csv',
            acl: ['group:board'],
            chunks: [{ text: 'secret rows', vector: unitVector(next) }],
            tables: [ordersTable('secret orders')],
          }),
        );
        const byDoc = new Map((await store.listTables(ADMIN)).map((table) => [table.docId, table.sqlName]));
        sales = byDoc.get('sales.csv') as string;
        publicOrders = byDoc.get('orders.csv') as string;
        secretOrders = byDoc.get('secret.csv') as string;
      });

      async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string; hint: string }> {
        const error: unknown = await promise.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(isEvidentError(error), `expected an Evident error, got ${String(error)}`).toBe(true);
        const { code, message, hint } = error as { code: string; message: string; hint?: string };
        return { code, message, hint: hint ?? '' };
      }

      it('aggregates with GROUP BY over an ingested table', async () => {
        const result = await store.queryTables(
          `SELECT region, SUM("amount usd") AS total, COUNT(*) AS n, MAX(units) AS top
           FROM ${sales} GROUP BY region ORDER BY region;`,
          CAROL,
          LIMITS,
        );
        expect(result).toEqual({
          columns: ['region', 'total', 'n', 'top'],
          rows: [
            ['APAC', 7.75, 1, 4],
            ['EMEA', 400.5, 3, 6],
            ['NA', 100.25, 2, 5],
          ],
          truncated: false,
        });
        const filtered = await store.queryTables(
          `WITH paid AS (SELECT * FROM ${publicOrders} WHERE paid = 1) SELECT "order id", customer FROM paid`,
          CAROL,
          LIMITS,
        );
        expect(filtered.rows).toEqual([[1, 'ACME']]);
      });

      it('joins visible tables and runs syntax the guard cannot parse (window functions)', async () => {
        const ranked = await store.queryTables(
          `SELECT region, units, row_number() OVER (PARTITION BY region ORDER BY units DESC) AS r FROM ${sales} ORDER BY region, r`,
          CAROL,
          LIMITS,
        );
        expect(ranked.rows.map((row) => row[2])).toEqual([1, 1, 2, 3, 1, 2]);
        const joined = await store.queryTables(
          `SELECT o.customer, s.region FROM ${publicOrders} o JOIN ${sales} s ON s.units = o."order id" ORDER BY o."order id"`,
          CAROL,
          LIMITS,
        );
        expect(joined.rows).toEqual([
          ['ACME', 'EMEA'],
          ['Globex', 'NA'],
          ['Initech', 'EMEA'],
        ]);
      });

      it('refuses anything but one read-only SELECT, and changes nothing', async () => {
        const statements = [
          `INSERT INTO ${sales} VALUES ('X', 1, 1)`,
          `UPDATE ${sales} SET units = 0`,
          `DELETE FROM ${sales}`,
          `DROP TABLE ${sales}`,
          `CREATE TABLE copy AS SELECT * FROM ${sales}`,
          `ATTACH DATABASE ':memory:' AS other`,
          `PRAGMA table_info(${sales})`,
          `SELECT 1; SELECT 2`,
          `SELECT * FROM ${sales}; DELETE FROM ${sales}`,
          `WITH gone AS (SELECT 1) DELETE FROM ${sales}`,
          `SELECT * INTO copy FROM ${sales}`,
          'VACUUM',
          'BEGIN',
          '',
          '   ;  ',
        ];
        for (const sql of statements) {
          const error = await rejection(store.queryTables(sql, ADMIN, LIMITS));
          expect(error.code, sql).toBe('query_rejected');
          expect(error.message, sql).toMatch(/SELECT/);
        }
        const count = await store.queryTables(`SELECT count(*) FROM ${sales}`, ADMIN, LIMITS);
        expect(count.rows).toEqual([[6]]);
        expect((await store.listTables(ADMIN)).map((table) => table.rowCount)).toEqual([3, 6, 3]);
        // Semicolons inside strings and a trailing one are fine.
        const literal = await store.queryTables(`SELECT 'a;b' AS s, count(*) FROM ${sales} -- done;`, ADMIN, LIMITS);
        expect(literal.rows).toEqual([['a;b', 6]]);
      });

      it('refuses every table but the visible ingested ones, with the text a missing table gets', async () => {
        const reference = await rejection(store.queryTables('SELECT * FROM tbl_no_such_table', CAROL, LIMITS));
        expect(reference.code).toBe('query_rejected');
        expect(`${reference.message} ${reference.hint}`).toContain(sales);
        const forbidden = [
          'SELECT * FROM documents',
          'SELECT text FROM chunks',
          'SELECT * FROM chunk_fts',
          'SELECT * FROM users',
          'SELECT * FROM document_acl',
          'SELECT * FROM sqlite_master',
          'SELECT * FROM sqlite_schema',
          'SELECT * FROM sqlite_temp_master',
          "SELECT * FROM pragma_table_info('documents')",
          'SELECT * FROM pragma_database_list',
          "SELECT * FROM json_each('[1, 2]')",
          `SELECT * FROM main.${sales}`.replace('main.', 'other_db.'),
          `SELECT * FROM ${secretOrders}`,
          `SELECT customer FROM ${secretOrders} WHERE paid = 1`,
          `SELECT * FROM ${sales} WHERE region IN (SELECT customer FROM ${secretOrders})`,
          `SELECT (SELECT count(*) FROM documents) FROM ${sales}`,
          `SELECT region FROM ${sales} UNION SELECT doc_id FROM documents`,
          'WITH x AS (SELECT * FROM users) SELECT * FROM x',
          // The guard's parser does not know window functions: the backend's own check must hold.
          'SELECT row_number() OVER () FROM documents',
          `SELECT no_such_column, row_number() OVER () FROM ${secretOrders}`,
          'SELECT no_such_column, row_number() OVER () FROM tbl_no_such_table',
          `SELECT row_number() OVER (), * FROM ${sales}, pragma_table_info('users')`,
        ];
        for (const sql of forbidden) {
          const error = await rejection(store.queryTables(sql, CAROL, LIMITS));
          expect(error, sql).toEqual(reference);
          expect(error.message, sql).not.toContain(secretOrders);
        }
        // The table is there for a principal who may see it.
        expect((await store.queryTables(`SELECT count(*) FROM ${secretOrders}`, ADMIN, LIMITS)).rows).toEqual([[3]]);
        const boardMember: Principal = { id: 'erin', groups: ['board'], roles: ['member'] };
        expect((await store.queryTables(`SELECT max(amount) FROM ${secretOrders}`, boardMember, LIMITS)).rows).toEqual([[20]]);
      });

      it('reports a wrong column without refusing the table', async () => {
        const error = await rejection(store.queryTables(`SELECT no_such_column FROM ${sales}`, CAROL, LIMITS));
        expect(error.code).toBe('query_rejected');
        expect(error.message).toContain('no_such_column');
      });

      it('returns at most maxRows rows and says when there were more', async () => {
        const limited = await store.queryTables(`SELECT units FROM ${sales} ORDER BY units`, CAROL, { ...LIMITS, maxRows: 4 });
        expect(limited).toEqual({ columns: ['units'], rows: [[1], [2], [3], [4]], truncated: true });
        const exact = await store.queryTables(`SELECT units FROM ${sales} ORDER BY units`, CAROL, { ...LIMITS, maxRows: 6 });
        expect(exact.truncated).toBe(false);
        expect(exact.rows).toHaveLength(6);
        const generated = await store.queryTables(
          'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT i FROM n',
          CAROL,
          { ...LIMITS, maxRows: 10 },
        );
        expect(generated.rows).toEqual([[1], [2], [3], [4], [5], [6], [7], [8], [9], [10]]);
        expect(generated.truncated).toBe(true);
        await expectRejects(store.queryTables(`SELECT * FROM ${sales}`, CAROL, { maxRows: 0, timeoutMs: 1000 }), 'invalid_input');
      });

      it('stops a query that runs past the time limit, then runs the next one', async () => {
        const endless = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n';
        const error = await rejection(store.queryTables(endless, CAROL, { maxRows: 10, timeoutMs: 300 }));
        expect(error.code).toBe('query_timeout');
        expect(error.message).toContain('300 ms');
        expect((await store.queryTables(`SELECT sum(units) FROM ${sales}`, CAROL, LIMITS)).rows).toEqual([[21]]);
      });

      it('sees the current version of a table', async () => {
        expect((await store.queryTables(`SELECT count(*) FROM ${sales}`, CAROL, LIMITS)).rows).toEqual([[6]]);
        await store.putDocument(
          documentWrite({
            docId: 'sales.csv',
            contentHash: 'v2',
            chunks: [{ text: 'fewer sales rows', vector: unitVector(random(18)) }],
            tables: [{ ...salesTable, rows: salesTable.rows.slice(0, 2) }],
          }),
        );
        const [table] = (await store.listTables(CAROL)).filter((t) => t.docId === 'sales.csv');
        const result = await store.queryTables(`SELECT sum(units) FROM ${table?.sqlName ?? ''}`, CAROL, LIMITS);
        expect(result.rows).toEqual([[3]]);
        // Once the document becomes restricted, its table is refused like any other.
        await store.putDocument(
          documentWrite({
            docId: 'sales.csv',
            contentHash: 'v3',
            acl: ['group:board'],
            chunks: [{ text: 'restricted sales rows', vector: unitVector(random(19)) }],
            tables: [salesTable],
          }),
        );
        const name = (await store.listTables(ADMIN)).find((t) => t.docId === 'sales.csv')?.sqlName ?? '';
        const error = await rejection(store.queryTables(`SELECT * FROM ${name}`, CAROL, LIMITS));
        expect(error).toEqual(await rejection(store.queryTables('SELECT * FROM tbl_no_such_table', CAROL, LIMITS)));
      });
    });

    // -------------------------------------------------------------- users and cache

    describe('users', () => {
      it('creates, updates and lists users', async () => {
        const created = await store.upsertUser({ name: 'zoe', groups: ['legal'] });
        expect(created).toMatchObject({ name: 'zoe', groups: ['legal'], roles: ['member'] });
        expect(Number.isNaN(Date.parse(created.createdAt))).toBe(false);
        await store.upsertUser({ name: 'adam', groups: [], roles: ['admin'] });

        const updated = await store.upsertUser({ name: 'zoe', groups: ['legal', 'hr'] });
        expect(updated).toEqual({ ...created, groups: ['legal', 'hr'] });
        expect(await store.getUser('zoe')).toEqual(updated);
        expect((await store.upsertUser({ name: 'zoe', groups: ['hr'], roles: ['admin', 'member'] })).roles).toEqual([
          'admin',
          'member',
        ]);
        expect((await store.upsertUser({ name: 'adam', groups: ['ops'] })).roles).toEqual(['admin']);
        expect(await store.getUser('nobody')).toBeUndefined();
        expect((await store.listUsers()).map((user) => user.name)).toEqual(['adam', 'zoe']);
        expect((await store.stats()).users).toBe(2);
      });
    });

    describe('api keys', () => {
      it('creates keys shown once, maps them to the user\'s current principal, lists and revokes them', async () => {
        await store.upsertUser({ name: 'zoe', groups: ['legal'] });
        await store.upsertUser({ name: 'yan', groups: ['hr'] });
        const first = await store.createApiKey('zoe');
        const second = await store.createApiKey('zoe');
        const yans = await store.createApiKey('yan');
        expect(first.key).not.toBe(second.key);
        expect(first.key.length).toBeGreaterThanOrEqual(32);
        expect(await store.principalForApiKey(first.key)).toEqual({ id: 'zoe', groups: ['legal'], roles: ['member'] });
        expect((await store.principalForApiKey(yans.key))?.id).toBe('yan');
        expect(await store.principalForApiKey('evk_not-a-key')).toBeUndefined();
        expect(await store.principalForApiKey('')).toBeUndefined();

        await store.upsertUser({ name: 'zoe', groups: ['hr'], roles: ['admin'] });
        expect(await store.principalForApiKey(second.key)).toEqual({ id: 'zoe', groups: ['hr'], roles: ['admin'] });

        const listed = await store.listApiKeys('zoe');
        expect(listed.map((k) => k.id)).toEqual([first.id, second.id]);
        expect(listed[0]).toMatchObject({ id: first.id, user: 'zoe' });
        expect(JSON.stringify(listed)).not.toContain(first.key);
        expect(await store.listApiKeys('nobody')).toEqual([]);

        expect(await store.revokeApiKey(first.id)).toBe(true);
        expect(await store.revokeApiKey(first.id)).toBe(false);
        expect(await store.principalForApiKey(first.key)).toBeUndefined();
        expect((await store.principalForApiKey(second.key))?.id).toBe('zoe');
        expect((await store.listApiKeys('zoe')).map((k) => k.id)).toEqual([second.id]);
        await expectRejects(store.createApiKey('nobody'), 'not_found');
      });

      it('keeps keys across close and reopen', async () => {
        await store.upsertUser({ name: 'zoe', groups: ['legal'] });
        const { key } = await store.createApiKey('zoe');
        await store.close();
        store = await open({ location: store.location });
        expect((await store.principalForApiKey(key))?.id).toBe('zoe');
      });
    });

    describe('memories', () => {
      it('adds, searches, lists and deletes memories of one user only', async () => {
        const next = random(21);
        const close = unitVector(next);
        const far = unitVector(next);
        const first = await store.addMemory({ user: 'alice', text: ' Alice prefers invoices in EUR ', vector: close, source: 'thread:t1' });
        expect(first.created).toBe(true);
        expect(first.memory).toMatchObject({ user: 'alice', text: 'Alice prefers invoices in EUR', source: 'thread:t1' });
        expect(Number.isNaN(Date.parse(first.memory.createdAt))).toBe(false);
        await store.addMemory({ user: 'alice', text: 'Alice is on leave in May', vector: far });
        // bob's memory is the closest of all to the query, yet never reaches alice.
        const bobs = await store.addMemory({ user: 'bob', text: 'Bob secret project codename', vector: close });

        const hits = await store.searchMemories('alice', close, 5);
        expect(hits.map((hit) => hit.text)).toEqual(['Alice prefers invoices in EUR', 'Alice is on leave in May']);
        expect(hits[0]?.score).toBeCloseTo(1, 5);
        expect(hits[1]?.score).toBeCloseTo(cosine(close, far), 5);
        expect((await store.searchMemories('alice', close, 1)).map((hit) => hit.id)).toEqual([first.memory.id]);
        expect(await store.searchMemories('alice', close, 0)).toEqual([]);
        expect((await store.listMemories('alice')).map((memory) => memory.text)).toEqual(['Alice prefers invoices in EUR', 'Alice is on leave in May']);
        expect((await store.listMemories('bob')).map((memory) => memory.id)).toEqual([bobs.memory.id]);
        expect(await store.listMemories('carol')).toEqual([]);
        expect(await store.searchMemories('carol', close, 5)).toEqual([]);
        // A memory embedded with another dimension is listed but never matched.
        await store.addMemory({ user: 'alice', text: 'old embedder', vector: new Float32Array([1, 0]) });
        expect((await store.searchMemories('alice', close, 5)).map((hit) => hit.text)).not.toContain('old embedder');

        // Deleting needs the owner: alice cannot delete bob's memory, even knowing its id.
        expect(await store.deleteMemory('alice', bobs.memory.id)).toBe(false);
        expect(await store.listMemories('bob')).toHaveLength(1);
        expect(await store.deleteMemory('bob', bobs.memory.id)).toBe(true);
        expect(await store.deleteMemory('bob', bobs.memory.id)).toBe(false);
        expect(await store.listMemories('bob')).toEqual([]);
      });

      it('writes at most once per user and idempotency key', async () => {
        const vector = unitVector(random(22));
        const once = await store.addMemory({ user: 'alice', text: 'first text', vector, idempotencyKey: 'run-1:call-1' });
        const again = await store.addMemory({ user: 'alice', text: 'replayed text', vector, idempotencyKey: 'run-1:call-1' });
        expect(again).toEqual({ memory: once.memory, created: false });
        // The same key of another user is another write, and does not return alice's memory.
        const bobs = await store.addMemory({ user: 'bob', text: 'bob text', vector, idempotencyKey: 'run-1:call-1' });
        expect(bobs.created).toBe(true);
        expect(bobs.memory.text).toBe('bob text');
        await store.addMemory({ user: 'alice', text: 'no key', vector });
        await store.addMemory({ user: 'alice', text: 'no key', vector });
        expect((await store.listMemories('alice')).map((memory) => memory.text)).toEqual(['first text', 'no key', 'no key']);
      });

      it('refuses a memory without user, text or vector', async () => {
        const vector = unitVector(random(23));
        await expectRejects(store.addMemory({ user: ' ', text: 'x', vector }), 'invalid_input');
        await expectRejects(store.addMemory({ user: 'alice', text: '  ', vector }), 'invalid_input');
        await expectRejects(store.addMemory({ user: 'alice', text: 'x', vector: new Float32Array(0) }), 'invalid_input');
        expect(await store.listMemories('alice')).toEqual([]);
      });

      it('keeps memories across close and reopen', async () => {
        const vector = unitVector(random(24));
        const saved = await store.addMemory({ user: 'alice', text: 'persistent memory', vector, idempotencyKey: 'k' });
        await store.close();
        store = await open({ location: store.location });
        expect(await store.listMemories('alice')).toEqual([saved.memory]);
        expect((await store.addMemory({ user: 'alice', text: 'again', vector, idempotencyKey: 'k' })).created).toBe(false);
      });
    });

    describe('embedding cache', () => {
      it('returns cached vectors by embedder and content hash', async () => {
        const next = random(13);
        const h1 = unitVector(next);
        const h2 = unitVector(next);
        await store.cacheEmbeddings('e1', new Map([['h1', h1], ['h2', h2]]));
        const found = await store.cachedEmbeddings('e1', ['h1', 'h3']);
        expect([...found.keys()]).toEqual(['h1']);
        expect(Array.from(found.get('h1') ?? [])).toEqual(Array.from(h1));
        expect((await store.cachedEmbeddings('e2', ['h1', 'h2'])).size).toBe(0);
        expect((await store.cachedEmbeddings('e1', [])).size).toBe(0);
        const replacement = unitVector(next);
        await store.cacheEmbeddings('e1', new Map([['h1', replacement]]));
        expect(Array.from((await store.cachedEmbeddings('e1', ['h1'])).get('h1') ?? [])).toEqual(Array.from(replacement));
      });
    });

    // -------------------------------------------------------------- reindex input, stats

    describe('chunkTexts and stats', () => {
      it('yields every chunk once, in batches no larger than asked', async () => {
        const next = random(14);
        await store.putDocument(
          documentWrite({ docId: 'five.md', chunks: [0, 1, 2, 3, 4].map((i) => ({ text: `five ${i}`, vector: unitVector(next) })) }),
        );
        await store.putDocument(
          documentWrite({ docId: 'two.md', acl: ['user:x'], chunks: [0, 1].map((i) => ({ text: `two ${i}`, vector: unitVector(next) })) }),
        );
        const seen: string[] = [];
        for await (const batch of store.chunkTexts(3)) {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(3);
          for (const chunk of batch) {
            expect(chunk.text).toBe(`${docOf(chunk.id).replace('.md', '')} ${chunk.ordinal}`);
            expect(chunk.title).toBe(`Title of ${chunk.docId}`);
            seen.push(chunk.id);
          }
        }
        expect(sorted(seen)).toEqual(sorted([0, 1, 2, 3, 4].map((i) => `five.md#${i}`).concat(['two.md#0', 'two.md#1'])));
        expect(await store.stats()).toEqual({ documents: 2, chunks: 7, tables: 0, users: 0, embedder: EMBEDDER });
      });
    });

    // -------------------------------------------------------------- runs and threads

    describe('runs and threads', () => {
      const run = (runId: string, threadId: string, user: string, question = `question of ${runId}`) => ({
        runId,
        threadId,
        agent: 'rag',
        user,
        question,
      });

      it('records runs with status and timings, and lists the owner\'s threads newest first', async () => {
        const started = await store.startRun(run('r1', 't1', 'alice', 'What is the fee?'));
        expect(started).toMatchObject({ runId: 'r1', threadId: 't1', status: 'running', user: 'alice', question: 'What is the fee?' });
        expect(started.finishedAt).toBeUndefined();
        const finished = await store.finishRun('r1', { status: 'answered' });
        expect(finished.status).toBe('answered');
        expect(Date.parse(finished.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(started.startedAt));
        expect(finished.durationMs).toBeGreaterThanOrEqual(0);
        await store.startRun(run('r2', 't1', 'alice', 'And its cap?'));
        await store.finishRun('r2', { status: 'failed', error: 'model unreachable' });
        await store.startRun(run('r3', 't2', 'alice', 'Another thread'));

        const runs = await store.listRuns('t1', 'alice');
        expect(runs.map((r) => [r.runId, r.status])).toEqual([['r1', 'answered'], ['r2', 'failed']]);
        expect(runs[1]?.error).toBe('model unreachable');
        const threads = await store.listThreads('alice');
        expect(threads.map((t) => [t.threadId, t.runCount, t.lastQuestion])).toEqual([
          ['t2', 1, 'Another thread'],
          ['t1', 2, 'And its cap?'],
        ]);
        expect(threads[1]?.agent).toBe('rag');
        expect(Date.parse(threads[1]?.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(threads[1]?.createdAt ?? ''));
      });

      it('refuses a second run on a thread while one is running, whoever asks, and accepts one after it ends', async () => {
        await store.startRun(run('busy-1', 'busy', 'alice'));
        await expectRejects(store.startRun(run('busy-2', 'busy', 'alice')), 'thread_busy');
        expect(await store.getRun('busy-2')).toBeUndefined();
        await store.startRun(run('other-1', 'other', 'alice'));
        await store.finishRun('busy-1', { status: 'interrupted' });
        expect((await store.startRun(run('busy-3', 'busy', 'alice'))).status).toBe('running');
        expect((await store.listRuns('busy', 'alice')).map((r) => r.runId)).toEqual(['busy-1', 'busy-3']);
      });

      it("never lists another user's threads or runs, and refuses a run on their thread", async () => {
        await store.startRun(run('a1', 'alice-thread', 'alice'));
        await store.startRun(run('b1', 'bob-thread', 'bob'));
        expect((await store.listThreads('bob')).map((t) => t.threadId)).toEqual(['bob-thread']);
        expect(await store.listRuns('alice-thread', 'bob')).toEqual([]);
        expect(await store.listThreads('carol')).toEqual([]);
        await expectRejects(store.startRun(run('b2', 'alice-thread', 'bob')), 'thread_forbidden');
        expect((await store.listRuns('alice-thread', 'alice')).map((r) => r.runId)).toEqual(['a1']);
        await expectRejects(store.finishRun('no-such-run', { status: 'answered' }), 'not_found');
      });

      it('creates empty threads that the first run binds to its agent', async () => {
        const created = await store.createThread({ threadId: 'empty', owner: 'alice', metadata: { topic: 'fees', n: 2 } });
        expect(created).toMatchObject({ threadId: 'empty', owner: 'alice', agent: null, metadata: { topic: 'fees', n: 2 } });
        expect(await store.getThread('empty')).toEqual(created);
        expect(await store.getThread('missing')).toBeUndefined();
        expect((await store.listThreads('alice')).map((t) => [t.threadId, t.runCount, t.lastQuestion, t.lastStatus])).toEqual([['empty', 0, '', undefined]]);
        await expectRejects(store.createThread({ threadId: 'empty', owner: 'bob' }), 'thread_exists');
        expect((await store.getThread('empty'))?.owner).toBe('alice');

        await store.startRun(run('e1', 'empty', 'alice'));
        await store.finishRun('e1', { status: 'cancelled' });
        expect(await store.getThread('empty')).toMatchObject({ agent: 'rag', metadata: { topic: 'fees', n: 2 } });
        expect((await store.listThreads('alice'))[0]).toMatchObject({ threadId: 'empty', runCount: 1, lastStatus: 'cancelled' });
        await expectRejects(store.startRun({ ...run('e2', 'empty', 'alice'), agent: 'react' }), 'thread_agent_mismatch');
        expect(await store.getRun('e2')).toBeUndefined();
        expect(await store.getRun('e1')).toMatchObject({ runId: 'e1', threadId: 'empty', status: 'cancelled' });
      });

      it('flags a running run for cancellation, and only a running one', async () => {
        await store.startRun(run('c1', 'cancels', 'alice'));
        expect((await store.getRun('c1'))?.cancelRequested).toBeUndefined();
        expect(await store.requestRunCancel('c1')).toBe(true);
        expect((await store.getRun('c1'))?.cancelRequested).toBe(true);
        await store.finishRun('c1', { status: 'cancelled' });
        await store.startRun(run('c2', 'cancels', 'alice'));
        await store.finishRun('c2', { status: 'answered' });
        expect(await store.requestRunCancel('c2')).toBe(false);
        expect((await store.getRun('c2'))?.cancelRequested).toBeUndefined();
        expect(await store.requestRunCancel('no-such-run')).toBe(false);
      });

      it('keeps each run\'s event log in order, refuses a sequence number twice, and deletes it with the thread', async () => {
        await store.startRun(run('ev1', 'events', 'alice'));
        const event = (seq: number, name = 'custom') => ({ runId: 'ev1', seq, event: name, data: { seq, text: `步骤 ${seq}` } });
        await store.appendRunEvents([event(1, 'metadata'), event(2)]);
        await store.appendRunEvents([event(3), event(4, 'end')]);
        expect(await store.listRunEvents('ev1', 0)).toEqual([event(1, 'metadata'), event(2), event(3), event(4, 'end')]);
        expect((await store.listRunEvents('ev1', 2)).map((e) => e.seq)).toEqual([3, 4]);
        expect((await store.listRunEvents('ev1', 0, 2)).map((e) => e.seq)).toEqual([1, 2]);
        expect(await store.listRunEvents('ev1', 4)).toEqual([]);

        // A batch with one taken number writes nothing of the batch.
        await expectRejects(store.appendRunEvents([event(5), event(3)]), 'run_event_conflict');
        expect((await store.listRunEvents('ev1', 0)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
        await expectRejects(store.appendRunEvents([{ ...event(1), runId: 'no-such-run' }]), 'not_found');

        expect(await store.deleteThread('events', 'bob')).toBe(false);
        expect(await store.listRunEvents('ev1', 0)).toHaveLength(4);
        expect(await store.deleteThread('events', 'alice')).toBe(true);
        expect(await store.getThread('events')).toBeUndefined();
        expect(await store.getRun('ev1')).toBeUndefined();
        expect(await store.listRunEvents('ev1', 0)).toEqual([]);
      });
    });

    // -------------------------------------------------------------- persistence

    describe('persistence', () => {
      it('keeps everything across close and reopen', async () => {
        const next = random(15);
        const legal = documentWrite({
          docId: 'legal.md',
          acl: ['group:legal'],
          chunks: [
            { text: 'persistent indemnity clause', vector: unitVector(next) },
            { text: 'persistent venue clause', vector: unitVector(next) },
          ],
          tables: [ordersTable()],
        });
        await store.putDocument(legal);
        await store.putDocument(documentWrite({ docId: 'public.md', chunks: [{ text: 'public note', vector: unitVector(next) }] }));
        const user = await store.upsertUser({ name: 'alice', groups: ['legal'] });
        const cached = unitVector(next);
        await store.cacheEmbeddings(EMBEDDER.id, new Map([['hash', cached]]));
        const before = await store.getDocument('legal.md');

        await store.close();
        store = await open({ location: store.location });

        expect(await store.getDocument('legal.md')).toEqual(before);
        expect((await store.listDocuments(ALICE)).map((doc) => doc.docId)).toEqual(['legal.md', 'public.md']);
        expect((await store.listDocuments(CAROL)).map((doc) => doc.docId)).toEqual(['public.md']);
        expect(ids(await store.keywordSearch(['indemnity'], ALICE, 5))).toEqual(['legal.md#0']);
        expect(await store.keywordSearch(['indemnity'], CAROL, 5)).toEqual([]);
        expect(ids(await store.vectorSearch(legal.vectors[1] as Float32Array, ALICE, 1))).toEqual(['legal.md#1']);
        expect(ids(await store.vectorSearch(legal.vectors[1] as Float32Array, CAROL, 5))).toEqual(['public.md#0']);
        expect((await store.listTables(ALICE)).map((table) => table.title)).toEqual(['orders']);
        expect(await store.getUser('alice')).toEqual(user);
        expect(Array.from((await store.cachedEmbeddings(EMBEDDER.id, ['hash'])).get('hash') ?? [])).toEqual(Array.from(cached));
        expect(await store.stats()).toEqual({ documents: 2, chunks: 3, tables: 1, users: 1, embedder: EMBEDDER });
      });
    });
  });
}
