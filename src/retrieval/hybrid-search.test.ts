import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, resolveRetrievalSettings } from '../config/schema.ts';
import type { Chunk, Principal } from '../domain/index.ts';
import { ValidationError } from '../errors/index.ts';
import type { Embedder } from '../models/embedder.ts';
import { HashingEmbedder } from '../models/offline/hashing-embedder.ts';
import { LexicalReranker } from '../models/offline/lexical-reranker.ts';
import type { Reranker } from '../models/reranker.ts';
import { openSqliteStore } from '../store/sqlite/store.ts';
import type { Store } from '../store/store.ts';
import { analyzeForIndex } from '../text/analyzer.ts';
import { embedWithCache } from './embed-with-cache.ts';
import { HybridSearch } from './hybrid-search.ts';
import { chunkSearchText } from './search-text.ts';

const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
const LEGAL: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };
const OUTSIDER: Principal = { id: 'bob', groups: [], roles: ['member'] };
// Both channels, as with a semantic embedder, so fusion is exercised.
const defaults = resolveRetrievalSettings(configSchema.parse({ retrieval: { channels: ['bm25', 'vector'] } }), {
  semantic: true,
});

/** Identifier → the passage that holds it; every other passage is a distractor sharing words but not the identifier. */
const IDENTIFIER_DOCS: Record<string, { query: string; text: string }> = {
  contract: {
    query: 'CT-2024-0193',
    text: 'Contract CT-2024-0193 covers the supply of office chairs to the Berlin office.',
  },
  contractNear: {
    query: 'CT-2024-0194',
    text: 'Contract CT-2024-0194 covers the supply of office desks to the Berlin office.',
  },
  hip: { query: 'HIP-3', text: 'HIP-3 proposes a new fee model for the network; HIP-4 will follow.' },
  hipNear: { query: 'HIP-2', text: 'HIP-2 proposed a fee model and was withdrawn after review of HIP-1.' },
  money: { query: '$500K', text: 'The marketing budget was raised to $500K for the launch quarter.' },
  bare: { query: '500K users', text: 'The app passed 500K users; the budget for servers stayed at $200K.' },
  api: { query: '/v2/orders/{id}', text: 'GET /v2/orders/{id} returns one order with its lines and status.' },
  apiNear: { query: '/v2/customers/{id}', text: 'GET /v2/customers/{id} returns the customer that placed orders.' },
  column: { query: 'order_total_usd', text: 'The column order_total_usd holds the order total in US dollars.' },
  ticker: { query: 'AAPL', text: 'AAPL closed higher after the earnings call; MSFT was flat.' },
  hex: { query: '0x7a25f3', text: 'Funds were sent to 0x7a25f3c9d1e8b4a6f2c0d9e8b7a6f5e4d3c2b1a0 on Monday.' },
  hexNear: {
    query: '0x7a26aa',
    text: 'Funds were returned from 0x7a26aa0000e8b4a6f2c0d9e8b7a6f5e4d3c2b1a0 on Tuesday.',
  },
  amount: { query: '1,250.50', text: 'Invoice total: 1,250.50 EUR, due in thirty days.' },
  amountNear: { query: '1,250.00', text: 'Invoice total: 1,250.00 EUR, due in sixty days.' },
  version: { query: 'v2.1.3', text: 'Release v2.1.3 fixes the login timeout; v2.1.4 will follow.' },
  versionNear: { query: 'v2.1.2', text: 'Release v2.1.2 changed the login flow and the timeout default.' },
  email: {
    query: 'alice.smith@example.com',
    text: 'Send invoices to alice.smith@example.com, not to the old address.',
  },
  emailNear: { query: 'bob.smith@example.com', text: 'Questions about invoices go to bob.smith@example.com.' },
};

const DISTRACTORS = [
  'Office supply contracts are reviewed every year by the procurement team.',
  'The fee model of the network is described in several proposals.',
  'Budgets for marketing and servers are set per quarter.',
  'Orders have lines, a status and a customer; totals are in dollars.',
  'Earnings calls move stock prices; tickers are listed on exchanges.',
  'Funds are sent and returned on weekdays only.',
  'Invoices are due thirty or sixty days after issue.',
  'Each release fixes bugs in the login flow.',
];

const CHINESE = '机器学习模型需要大量的训练数据，数据质量决定了模型的效果。';
const ENGLISH_ML =
  'Machine learning models need large amounts of training data; data quality decides how well they work.';

interface Doc {
  docId: string;
  texts: string[];
  acl?: string[];
}

async function put(store: Store, embedder: Embedder, doc: Doc): Promise<void> {
  const title = doc.docId.replace(/\.\w+$/, '');
  let offset = 0;
  const chunks: Chunk[] = doc.texts.map((text, ordinal) => {
    const startOffset = offset;
    offset += text.length + 2;
    return {
      id: `${doc.docId}#${ordinal}`,
      docId: doc.docId,
      ordinal,
      text,
      headingPath: [],
      startOffset,
      endOffset: startOffset + text.length,
    };
  });
  const searchTexts = chunks.map((chunk) => chunkSearchText({ ...chunk, title }));
  await store.putDocument({
    document: {
      docId: doc.docId,
      source: `/docs/${doc.docId}`,
      title,
      type: 'text',
      contentHash: doc.docId,
      bytes: offset,
      acl: doc.acl ?? [],
      tags: [],
    },
    chunks,
    keywordText: searchTexts.map(analyzeForIndex),
    vectors: await embedWithCache({ store, embedder }, searchTexts),
    embedder: { id: embedder.id, dimension: embedder.dimension },
    chapters: [],
    tables: [],
  });
}

describe('HybridSearch over a real SQLite store', () => {
  let dir: string;
  let store: Store;
  const embedder = new HashingEmbedder();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evident-search-'));
    store = await openSqliteStore(join(dir, 'evident.db'));
    for (const [name, { text }] of Object.entries(IDENTIFIER_DOCS))
      await put(store, embedder, { docId: `${name}.md`, texts: [text] });
    await put(store, embedder, { docId: 'distractors.md', texts: DISTRACTORS });
    await put(store, embedder, { docId: 'ml-zh.md', texts: [CHINESE] });
    await put(store, embedder, { docId: 'ml-en.md', texts: [ENGLISH_ML] });
    await put(store, embedder, {
      docId: 'secret.md',
      texts: ['Project Nightjar: the acquisition of CT-2024-0193 supplier closes in May.'],
      acl: ['group:legal'],
    });
    // Every chunk carries the title (with the identifier) in its search text; only the second states it.
    await put(store, embedder, {
      docId: 'INV-88412.md',
      texts: [
        'Shipping terms apply.',
        'Invoice INV-88412 lists the shipping charges for the order: freight, insurance, handling, customs brokerage, ' +
          'fuel surcharges and the fees for the pallets that the carrier returned to the warehouse after the delivery.',
      ],
    });
    await put(store, embedder, {
      docId: 'copy-a.md',
      texts: ['The quarterly fire drill takes place on the first Monday of March.'],
    });
    await put(store, embedder, {
      docId: 'copy-b.md',
      texts: ['The quarterly fire drill takes place on the first Monday of March!'],
    });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = (reranker?: Reranker) =>
    new HybridSearch({ store, embedder, ...(reranker ? { reranker } : {}), defaults });

  for (const rerank of [false, true]) {
    it.each(Object.entries(IDENTIFIER_DOCS))(
      `puts the chunk holding the identifier first (rerank ${rerank}): %s`,
      async (name, { query }) => {
        const trace = await search(new LexicalReranker()).search(query, OUTSIDER, { rerank });
        expect(trace.results[0]?.chunk.docId).toBe(`${name}.md`);
        expect(trace.results[0]?.channels.bm25?.rank).toBe(1);
      },
    );
  }

  it('ranks the chunk that states the identifier above chunks that inherit it from the title', async () => {
    for (const rerank of [false, true]) {
      const trace = await search(new LexicalReranker()).search('INV-88412', OUTSIDER, { rerank });
      expect(trace.results.slice(0, 2).map((r) => r.chunk.id)).toEqual(['INV-88412.md#1', 'INV-88412.md#0']);
    }
  });

  it('moves the chunk that states the identifier into its document’s first place even when only that place is shown', async () => {
    for (const rerank of [false, true]) {
      const trace = await search(new LexicalReranker()).search('INV-88412', OUTSIDER, { rerank, topK: 1 });
      expect(trace.results.map((r) => r.chunk.id)).toEqual(['INV-88412.md#1']);
    }
  });

  it('finds identifiers asked about inside a sentence', async () => {
    const trace = await search(new LexicalReranker()).search('who signed contract CT-2024-0193 for chairs?', OUTSIDER);
    expect(trace.results[0]?.chunk.docId).toBe('contract.md');
    const hex = await search().search('where did the money sent to 0x7a25f3… go', OUTSIDER);
    expect(hex.terms).toContain('0x7a25f3*');
    expect(hex.results[0]?.chunk.docId).toBe('hex.md');
  });

  it('finds the Chinese passage for a Chinese query and the English one for an English query', async () => {
    const zh = await search().search('训练数据的质量', OUTSIDER);
    expect(zh.results[0]?.chunk.docId).toBe('ml-zh.md');
    expect(zh.channels.bm25?.map((hit) => hit.chunkId)).not.toContain('ml-en.md#0');
    const en = await search().search('how does training data quality matter for machine learning', OUTSIDER);
    expect(en.results[0]?.chunk.docId).toBe('ml-en.md');
  });

  it('never returns a chunk the principal may not see, in results or in any channel list', async () => {
    for (const principal of [OUTSIDER, { id: 'carol', groups: ['hr'], roles: ['member'] } as Principal]) {
      const trace = await search(new LexicalReranker()).search('Project Nightjar acquisition CT-2024-0193', principal, {
        topK: 50,
      });
      const ids = [
        ...trace.results.map((result) => result.chunk.id),
        ...(trace.channels.bm25 ?? []).map((hit) => hit.chunkId),
        ...(trace.channels.vector ?? []).map((hit) => hit.chunkId),
      ];
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).not.toContain('secret.md#0');
      expect(JSON.stringify(trace)).not.toContain('closes in May');
    }
    const legal = await search().search('Project Nightjar acquisition', LEGAL);
    expect(legal.results[0]?.chunk.id).toBe('secret.md#0');
    const admin = await search().search('Project Nightjar acquisition', ADMIN);
    expect(admin.results[0]?.chunk.id).toBe('secret.md#0');
  });

  it('reports both channel ranks, fused score, rerank score, source and title', async () => {
    const trace = await search(new LexicalReranker()).search('marketing budget raised to $500K', OUTSIDER, { topK: 3 });
    const top = trace.results[0];
    expect(top?.chunk.docId).toBe('money.md');
    expect(top?.rank).toBe(1);
    expect(top?.source).toBe('/docs/money.md');
    expect(top?.title).toBe('money');
    expect(top?.channels.bm25?.rank).toBe(1);
    expect(top?.channels.vector?.rank).toBeGreaterThan(0);
    // An identifier query ($500K): the vector channel counts a quarter in the fusion.
    expect(top?.score).toBeCloseTo(1 / (60 + top!.channels.bm25!.rank) + 0.25 / (60 + top!.channels.vector!.rank), 12);
    expect(typeof top?.rerankScore).toBe('number');
    expect(trace.results).toHaveLength(3);
    expect(Object.keys(trace.timingsMs)).toEqual(
      expect.arrayContaining(['bm25', 'vector', 'fetch', 'rerank', 'total']),
    );
  });

  it('fuses both channels with equal weight for a query without identifiers', async () => {
    const trace = await search().search('quarterly fire drill', OUTSIDER);
    const top = trace.results[0];
    expect(top?.score).toBeCloseTo(1 / (60 + top!.channels.bm25!.rank) + 1 / (60 + top!.channels.vector!.rank), 12);
  });

  it('honours channel selection, topK and rerank=false', async () => {
    const bm25Only = await search(new LexicalReranker()).search('fire drill March', OUTSIDER, {
      channels: ['bm25'],
      rerank: false,
      topK: 2,
    });
    expect(bm25Only.channels.vector).toBeUndefined();
    expect(
      bm25Only.results.every((result) => result.rerankScore === undefined && result.channels.vector === undefined),
    ).toBe(true);
    expect(bm25Only.results.length).toBeLessThanOrEqual(2);
    const vectorOnly = await search().search('fire drill March', OUTSIDER, { channels: ['vector'] });
    expect(vectorOnly.channels.bm25).toBeUndefined();
    expect(vectorOnly.results[0]?.channels.vector?.rank).toBe(1);
  });

  it('collapses near-duplicate chunks, keeping one', async () => {
    const trace = await search().search('quarterly fire drill first Monday of March', OUTSIDER, { topK: 5 });
    const copies = trace.results.filter((result) => result.chunk.docId.startsWith('copy-'));
    expect(copies).toHaveLength(1);
    expect(trace.channels.bm25?.filter((hit) => hit.chunkId.startsWith('copy-'))).toHaveLength(2);
  });

  it('runs the vector channel for a query without keyword terms, and rejects an empty query', async () => {
    const trace = await search().search('?!…', OUTSIDER);
    expect(trace.terms).toEqual([]);
    expect(trace.channels.bm25).toEqual([]);
    expect(trace.channels.vector).toBeDefined();
    await expect(search().search('   ', OUTSIDER)).rejects.toThrow(ValidationError);
    await expect(search().search('x', OUTSIDER, { topK: 0 })).rejects.toThrow(ValidationError);
  });

  it('reranks the head of the fused list with the configured reranker', async () => {
    const reverse: Reranker = {
      id: 'reverse',
      rerank: async (_query, candidates) => candidates.map((_, i) => i),
    };
    const plain = await search().search('invoice total due', OUTSIDER, { rerank: false, topK: 3, rerankDepth: 3 });
    const reranked = await search(reverse).search('invoice total due', OUTSIDER, { topK: 3, rerankDepth: 3 });
    expect(reranked.results.map((r) => r.chunk.id)).toEqual(plain.results.map((r) => r.chunk.id).reverse());
    expect(reranked.results.map((r) => r.rerankScore)).toEqual([2, 1, 0]);
  });

  it('gives the same results from the stored analysed forms as from the texts, and never returns a form', async () => {
    // The same store, its getChunks never asked for forms: dedupe and the reranker read the texts.
    const textOnly = new Proxy(store, {
      get: (target, key) => {
        if (key === 'getChunks')
          return (ids: readonly string[], principal: Principal) => target.getChunks(ids, principal);
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const [withForm] = await store.getChunks(['copy-a.md#0'], OUTSIDER, { analysed: true });
    expect(withForm?.analysed?.length).toBeGreaterThan(0);
    // HybridSearch asks for the forms.
    const asked: unknown[] = [];
    const recording = new Proxy(store, {
      get: (target, key) => {
        if (key === 'getChunks')
          return (ids: readonly string[], principal: Principal, options?: unknown) => {
            asked.push(options);
            return target.getChunks(ids, principal, options as { analysed?: boolean });
          };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await new HybridSearch({ store: recording, embedder, defaults }).search('invoice total due', OUTSIDER);
    expect(asked).toEqual([{ analysed: true }]);
    const queries = [
      ...Object.values(IDENTIFIER_DOCS).map(({ query }) => query),
      'quarterly fire drill first Monday of March',
      'invoice total due',
      'fee model of the network',
      '机器学习 数据',
      'machine learning data quality',
    ];
    for (const principal of [OUTSIDER, ADMIN])
      for (const query of queries)
        for (const options of [{}, { rerank: false }, { topK: 20 }]) {
          const fromForms = await search(new LexicalReranker()).search(query, principal, options);
          const fromTexts = await new HybridSearch({
            store: textOnly,
            embedder,
            reranker: new LexicalReranker(),
            defaults,
          }).search(query, principal, options);
          expect(fromForms.results.every((result) => !('analysed' in result.chunk))).toBe(true);
          expect({ query, results: fromForms.results }).toEqual({ query, results: fromTexts.results });
        }
  });
});
