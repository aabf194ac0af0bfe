import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import type { SearchResult } from '../domain/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import type { TextRecord } from '../ingest/ingestor.ts';
import { withSchema } from '../store/postgres/drop-store.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { runCli } from '../testing/run-cli.ts';

/**
 * Score side channels: what bob receives from a search must be a function of what he may read alone. Two stores hold
 * the same public documents; the second also holds restricted documents full of one of the query's words. If keyword
 * statistics (document frequencies, average lengths) counted the restricted rows, bob's results — which documents,
 * their order, their per-channel ranks, the fused scores — would move, and tell him what the documents he cannot read
 * contain. Raw BM25 scores are already admin-only; these tests attack what is left.
 */
const filler = (i: number) => `Routine note ${i} about opening hours, parking and the canteen menu for the week.`;
const PUBLIC: TextRecord[] = [
  {
    docId: 'public/alpha.md',
    title: 'Alpha note',
    text: 'The merger codename orchid appears here once. Everything else is about gardening and tulips in spring.',
  },
  {
    docId: 'public/beta.md',
    title: 'Beta note',
    text: 'The vendor list for the harbour project: tugs, cranes, pilots and the harbour master office.',
  },
  {
    docId: 'public/both.md',
    title: 'Both note',
    text: 'Orchid and harbour both appear in this memo, which summarises the quarterly review.',
  },
  ...Array.from({ length: 6 }, (_, i) => ({ docId: `public/filler-${i}.md`, title: `Filler ${i}`, text: filler(i) })),
];
/** Restricted documents that repeat one query word: a rare word becomes a common one for the whole index. */
const SECRET: TextRecord[] = Array.from({ length: 12 }, (_, i) => ({
  docId: `secret/orchid-${i}.md`,
  title: `Board minute ${i}`,
  text: `Orchid orchid orchid: the board discussed project orchid again (minute ${i}), orchid valuation and orchid timing.`,
  acl: ['group:board'],
}));

const QUERIES = ['orchid harbour', 'merger codename orchid', 'harbour project orchid review'];

let plain: ApiTestServer;
let withSecrets: ApiTestServer;
beforeAll(async () => {
  plain = await startApiTestServer({ corpus: false });
  withSecrets = await startApiTestServer({ corpus: false });
  await plain.evident.ingestor.ingestRecords(PUBLIC);
  await withSecrets.evident.ingestor.ingestRecords([...PUBLIC, ...SECRET]);
});
afterAll(async () => {
  await plain?.close();
  await withSecrets?.close();
});

/** Bob's view of one search over HTTP: everything but the chunk ids, which differ between two stores. */
async function bobSearches(api: ApiTestServer, query: string, channels?: string[]): Promise<unknown> {
  const response = await api.request('POST', '/v1/search', {
    key: api.keys.bob,
    json: { query, top_k: 20, ...(channels ? { channels } : {}) },
  });
  expect(response.status, response.text).toBe(200);
  const { results } = response.json as {
    results: { doc_id: string; rank: number; score: number; channels: unknown; rerank_score: unknown }[];
  };
  return results.map(({ doc_id, rank, score, channels: perChannel, rerank_score }) => ({
    doc_id,
    rank,
    score,
    channels: perChannel,
    rerank_score,
  }));
}

describe('score side channels: restricted rows do not move what a user without access sees', () => {
  it('returns no restricted document to bob in either store (the filter itself holds)', async () => {
    for (const query of QUERIES) {
      const results = (await bobSearches(withSecrets, query)) as { doc_id: string }[];
      expect(results.length).toBeGreaterThan(0);
      expect(results.filter((result) => result.doc_id.startsWith('secret/'))).toEqual([]);
    }
  });

  it('shows the restricted rows to an admin, so the two stores do differ', async () => {
    const admin = await withSecrets.request('POST', '/v1/search', {
      key: withSecrets.keys.admin,
      json: { query: 'orchid', top_k: 20 },
    });
    expect(
      (admin.json as { results: { doc_id: string }[] }).results.some((result) => result.doc_id.startsWith('secret/')),
    ).toBe(true);
  });

  // Issue 12, "table query caps and score side channels": keyword statistics count restricted rows, so the keyword
  // channel's ranks and the fused order of public documents move when restricted documents share a query word.
  it.fails('gives bob the same keyword-channel results in both stores (documents, order, ranks)', async () => {
    for (const query of QUERIES)
      expect(await bobSearches(withSecrets, query, ['bm25']), query).toEqual(await bobSearches(plain, query, ['bm25']));
  });

  it.fails('gives bob the same hybrid results in both stores (documents, order, ranks, fused and rerank scores)', async () => {
    for (const query of QUERIES)
      expect(await bobSearches(withSecrets, query), query).toEqual(await bobSearches(plain, query));
  });

  it.fails('prints bob the same `evident search --explain` in both stores', async () => {
    const explain = async (api: ApiTestServer, query: string) => {
      const run = await runCli(['--db', api.evident.store.location, 'search', query, '--as', 'bob', '--explain']);
      expect(run.code, run.stderr).toBe(0);
      // Timings differ from run to run; everything else must not.
      return run.stdout.replace(/^.*\d+(\.\d+)? ?ms.*$/gm, '').replace(/#\d+/g, '#n');
    };
    for (const query of QUERIES) expect(await explain(withSecrets, query), query).toBe(await explain(plain, query));
  });
});

describeWithPostgres('score side channels on PostgreSQL', (url) => {
  const schemas = [freshSchema('evident_side_plain'), freshSchema('evident_side_secrets')];
  const stores: Evident[] = [];
  beforeAll(async () => {
    for (const [i, schema] of schemas.entries()) {
      const evident = await createEvident(loadConfig({ flags: { databaseUrl: withSchema(url, schema) }, env: {} }));
      await evident.store.upsertUser({ name: 'bob', groups: ['engineering'] });
      await evident.ingestor.ingestRecords(i === 0 ? PUBLIC : [...PUBLIC, ...SECRET]);
      stores.push(evident);
    }
  });
  afterAll(async () => {
    for (const evident of stores) await evident.close();
    await dropSchemas(url, schemas);
  });

  const view = (results: readonly SearchResult[]) =>
    results.map((result) => ({
      doc_id: result.chunk.docId,
      rank: result.rank,
      score: result.score,
      ranks: Object.fromEntries(Object.entries(result.channels).map(([name, hit]) => [name, hit?.rank])),
    }));
  const bobSearch = async (evident: Evident, query: string) =>
    view((await evident.search.search(query, await evident.principalFor('bob'), { channels: ['bm25'] })).results);

  it('returns no restricted document to bob', async () => {
    for (const query of QUERIES)
      expect(
        (await bobSearch(stores[1] as Evident, query)).filter((result) => result.doc_id.startsWith('secret/')),
      ).toEqual([]);
  });

  // Issue 12, "table query caps and score side channels": as on SQLite, keyword statistics count restricted rows.
  it.fails('gives bob the same keyword-channel results with and without the restricted documents', async () => {
    for (const query of QUERIES)
      expect(await bobSearch(stores[1] as Evident, query), query).toEqual(await bobSearch(stores[0] as Evident, query));
  });
});
