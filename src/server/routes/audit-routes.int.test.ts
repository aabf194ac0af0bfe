import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../agent/agent-runtime.ts';
import { questionSha256 } from '../../audit/question-fields.ts';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';
import { readSse } from '../../testing/sse-reader.ts';
import { RUN_HEADER, THREAD_HEADER } from './chat-completions-routes.ts';
import type { auditPageResponseJson } from '../openapi/paths/audit-paths.ts';
import type { z } from 'zod';

/** What the audit log's page answers, as a client reads it (the OpenAPI document's schema of it). */
type PageJson = z.infer<typeof auditPageResponseJson>;
type EntryJson = PageJson['entries'][number];

const RESTRICTED = 'finance/market-notes.txt';
const TREASURY_QUERY = 'treasury equity position stablecoin settlement wallet';

let api: ApiTestServer;

const audit = async (query = '', key = api.keys.admin): Promise<PageJson> => {
  const response = await api.request('GET', `/v1/audit${query}`, { key });
  expect(response.status, response.text).toBe(200);
  return response.json as PageJson;
};

/** The run engine records an ask when the run's end is stored, just after the client saw the end: read until it is there. */
async function entryOf(filter: string, matches: (entry: EntryJson) => boolean): Promise<EntryJson> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const found = (await audit(filter)).entries.find(matches);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no audit entry for ${filter}`);
}

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
});
afterAll(async () => api?.close());

describe('GET /v1/audit', () => {
  it('is for admins only: 401 without a key, 403 for a member, and a member learns nothing of the log', async () => {
    expect((await api.request('GET', '/v1/audit')).status).toBe(401);
    for (const key of [api.keys.alice, api.keys.bob]) {
      const refused = await api.request('GET', '/v1/audit?actor=alice', { key });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ error: { code: 'forbidden' } });
      expect(refused.text).not.toMatch(/search|withheld|question/);
    }
  });

  it("records a member's search with the doc ids returned and how many were withheld, never which, and hashes the query", async () => {
    const response = await api.request('POST', '/v1/search', {
      key: api.keys.bob,
      json: { query: TREASURY_QUERY, top_k: 5 },
    });
    expect(response.status).toBe(200);
    // The searcher's response carries nothing of the audit entry.
    expect(response.text).not.toMatch(/withheld|market-notes|audit/);
    const returned = (response.json as { results: { doc_id: string }[] }).results.map((r) => r.doc_id);

    const entry = (await audit('?actor=bob&action=search')).entries[0]!;
    expect(entry).toMatchObject({
      actor: 'bob',
      action: 'search',
      surface: 'http',
      question_sha256: questionSha256(TREASURY_QUERY),
      withheld: 1,
    });
    expect(entry.question).toBeUndefined();
    expect(entry.returned_doc_ids).toEqual([...new Set(returned)]);
    // The count says one document was held back; nothing in the entry names it.
    expect(JSON.stringify(entry)).not.toContain('market-notes');

    // The same query as an admin, who reads everything: the restricted document comes back, nothing is withheld.
    await api.request('POST', '/v1/search', { key: api.keys.admin, json: { query: TREASURY_QUERY, top_k: 5 } });
    const admins = (await audit('?actor=evident:admin-key&action=search')).entries[0]!;
    expect(admins.withheld).toBe(0);
    expect(admins.returned_doc_ids).toContain(RESTRICTED);
  });

  it('records an ask over the LangGraph API when the run ends: question hash, run, evidence and cited doc ids', async () => {
    const question = 'What is the termination fee of CT-2024-0193?';
    const wait = await api.request('POST', '/runs/wait', {
      key: api.keys.alice,
      json: { assistant_id: 'rag', input: { question } },
    });
    expect(wait.status).toBe(200);
    const [, threadId, runId] =
      /^\/threads\/([^/]+)\/runs\/([^/]+)$/.exec(wait.headers.get('content-location') ?? '') ?? [];
    expect(runId).toBeDefined();
    const answer = (wait.json as { answer: { citations: { doc_id: string }[] } }).answer;

    const entry = await entryOf(`?run_id=${runId}`, (e) => e.action === 'ask');
    expect(entry).toMatchObject({
      actor: 'alice',
      surface: 'langgraph',
      thread_id: threadId,
      outcome: 'answered',
      question_sha256: questionSha256(question),
    });
    expect(entry.cited_doc_ids).toEqual([...new Set(answer.citations.map((c) => c.doc_id))]);
    expect(entry.cited_doc_ids).toContain('contracts/ct-2024-0193.md');
    expect(entry.returned_doc_ids).toEqual(expect.arrayContaining(entry.cited_doc_ids!));
    expect(entry.withheld).toBeGreaterThanOrEqual(0);
  });

  it("records an ask over the OpenAI-compatible route, and bob's withheld count for a contract he may not read", async () => {
    const question = 'What is the termination fee of CT-2024-0193?';
    const response = await api.request('POST', '/v1/chat/completions', {
      key: api.keys.bob,
      json: { model: 'rag', messages: [{ role: 'user', content: question }] },
    });
    expect(response.status).toBe(200);
    expect(response.text).not.toMatch(/withheld|ct-2024-0193\.md/);
    const runId = response.headers.get(RUN_HEADER);
    const entry = await entryOf(`?run_id=${runId}`, (e) => e.action === 'ask');
    expect(entry).toMatchObject({ actor: 'bob', surface: 'openai', thread_id: response.headers.get(THREAD_HEADER) });
    expect(entry.cited_doc_ids ?? []).not.toContain('contracts/ct-2024-0193.md');
    expect(entry.returned_doc_ids ?? []).not.toContain('contracts/ct-2024-0193.md');
    // The contracts bob may not read rank in an unrestricted top-k for this question: counted, not named.
    expect(entry.withheld).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(entry)).not.toMatch(/contracts\//);
  });

  it("records an approval with its decision and decider (an admin deciding on alice's pending action)", async () => {
    const thread = (await api.request('POST', '/threads', { key: api.keys.alice, json: {} })).json as {
      thread_id: string;
    };
    const stream = await fetch(`${api.url}/threads/${thread.thread_id}/runs/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.keys.alice}` },
      body: JSON.stringify({
        assistant_id: 'rag',
        input: { question: 'Remember that I prefer answers in bullet points' },
      }),
    });
    await readSse(stream);
    const asked = await entryOf(`?actor=alice&action=ask`, (e) => e.thread_id === thread.thread_id);
    expect(asked.outcome).toBe('interrupted');

    const resumed = await fetch(`${api.url}/threads/${thread.thread_id}/runs/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.keys.admin}` },
      body: JSON.stringify({
        assistant_id: 'rag',
        command: { resume: { decision: 'edit', args: { text: 'Alice prefers bullet points' } } },
      }),
    });
    const read = await readSse(resumed);
    const runId = (read.events[0]?.data as { run_id: string }).run_id;
    const entry = (await audit(`?run_id=${runId}`)).entries;
    expect(entry).toHaveLength(1);
    expect(entry[0]).toMatchObject({
      actor: 'evident:admin-key',
      action: 'approval',
      decision: 'edit',
      surface: 'langgraph',
      thread_id: thread.thread_id,
    });
    expect(entry[0]!.target).toMatch(/^save_memory \S+/);
  });

  it('records admin actions: a user added and updated, a key created and revoked, a document uploaded and deleted', async () => {
    const admin = api.keys.admin;
    expect(
      (await api.request('POST', '/v1/users', { key: admin, json: { name: 'dana', groups: ['legal'] } })).status,
    ).toBe(201);
    expect(
      (await api.request('POST', '/v1/users', { key: admin, json: { name: 'dana', groups: ['legal', 'hr'] } })).status,
    ).toBe(201);
    const key = (await api.request('POST', '/v1/users/dana/keys', { key: admin })).json as { id: string; key: string };
    expect((await api.request('DELETE', `/v1/keys/${key.id}`, { key: admin })).status).toBe(200);
    const form = new FormData();
    form.append('files', new Blob(['# Leave policy\n\nStaff get 25 days of leave.\n']), 'leave.md');
    expect((await api.request('POST', '/v1/documents', { key: admin, body: form })).status).toBe(201);
    expect((await api.request('DELETE', '/v1/documents/leave.md', { key: admin })).status).toBe(200);
    // A member is refused before anything happens: nothing is recorded for it.
    expect((await api.request('DELETE', '/v1/documents/policies/expenses.md', { key: api.keys.alice })).status).toBe(
      403,
    );

    const entries = (await audit('?actor=evident:admin-key&limit=7')).entries.reverse();
    expect(entries.map((e) => [e.action, e.target, e.outcome, e.surface])).toEqual([
      ['user.add', 'dana', 'groups=legal roles=member', 'http'],
      ['user.update', 'dana', 'groups=legal,hr roles=member', 'http'],
      ['key.create', key.id, 'for dana', 'http'],
      ['key.revoke', key.id, undefined, 'http'],
      // Received before it is stored (a crash after the store's write leaves this), then its outcome.
      ['document.upload', 'leave.md', 'received', 'http'],
      ['document.upload', 'leave.md', 'ingested', 'http'],
      ['document.delete', 'leave.md', undefined, 'http'],
    ]);
    // The key itself is never recorded.
    expect(JSON.stringify(await audit('?limit=200'))).not.toContain(key.key);
    expect((await audit('?action=document.delete')).entries.map((e) => e.target)).toEqual(['leave.md']);
  });

  it("records reads of content: a document's file, and a member's refused try at another's, before anything leaves", async () => {
    const form = new FormData();
    form.append('files', new Blob(['# Canteen\n\nThe canteen opens at eight.\n']), 'canteen.md');
    form.append('acl', 'public');
    expect((await api.request('POST', '/v1/documents', { key: api.keys.admin, body: form })).status).toBe(201);
    const file = await api.request('GET', '/v1/documents/canteen.md/file', { key: api.keys.bob });
    expect(file.status).toBe(200);
    const hidden = await api.request('GET', `/v1/documents/${RESTRICTED}/file`, { key: api.keys.bob });
    expect(hidden.status).toBe(404);
    const reads = (await audit('?action=document.read&actor=bob')).entries.reverse();
    expect(reads.map((e) => [e.target, e.outcome, e.surface, e.returned_doc_ids])).toEqual([
      ['canteen.md', 'ok', 'http', ['canteen.md']],
      [RESTRICTED, 'not_found', 'http', undefined],
    ]);
  });

  it('filters by action, actor and time, and pages newest first with a cursor to the last page', async () => {
    const all = (await audit('?limit=200')).entries;
    expect(all.length).toBeGreaterThanOrEqual(10);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));

    const pages: EntryJson[] = [];
    let cursor: string | null = null;
    do {
      const page: PageJson = await audit(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(3);
      pages.push(...page.entries);
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages).toEqual(all);

    const oldest = all.at(-1)!;
    expect((await audit(`?until=${encodeURIComponent(oldest.at)}`)).entries.map((e) => e.id)).toContain(oldest.id);
    expect((await audit(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).entries).toEqual(
      [],
    );
    expect(
      (await audit('?action=search&actor=bob')).entries.every((e) => e.action === 'search' && e.actor === 'bob'),
    ).toBe(true);
  });

  it('refuses malformed filters with 400 and names them', async () => {
    for (const [query, field] of [
      ['?action=drop', 'action'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?cursor=abc', 'cursor'],
      ['?since=not-a-time', 'since'],
      ['?actorr=bob', 'actorr'],
    ]) {
      const response = await api.request('GET', `/v1/audit${query}`, { key: api.keys.admin });
      expect(response.status, query).toBe(400);
      expect(response.json).toMatchObject({ error: { code: 'invalid_input' } });
      expect(response.text, query).toContain(field);
    }
  });
});
