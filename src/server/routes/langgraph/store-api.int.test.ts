import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@langchain/langgraph-sdk';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../../testing/sample-corpus-store.ts';
import { startServeProcess } from '../../../testing/serve-process.ts';

/**
 * LangGraph's Store API with the official SDK (`client.store.*`) against a real `evident serve` on SQLite: the round
 * trip, the isolation between users attacked from every route (read, search, filter, list, delete, write, and the
 * raw answers compared byte for byte so nothing tells "not yours" from "absent"), shared namespaces under an ACL,
 * TTL, bounds, and the one store: a memory an agent saved is an item, an item put here is recalled by the rag agent.
 */
const ADMIN_KEY = 'store-api-admin-key-0123456789';

let sample: SampleCorpusStore;
let server: ChildProcess | undefined;
let url: string;
let keys: { alice: string; bob: string; carol: string; ann: string };
let alice: Client;
let bob: Client;
let carol: Client;
let admin: Client;

beforeAll(async () => {
  sample = await openSampleCorpusStore([
    { name: 'alice', groups: ['legal'] },
    { name: 'bob', groups: ['engineering'] },
    { name: 'carol', groups: ['legal'] },
    { name: 'ann.lee', groups: [] },
  ]);
  keys = {
    alice: (await sample.evident.store.createApiKey('alice')).key,
    bob: (await sample.evident.store.createApiKey('bob')).key,
    carol: (await sample.evident.store.createApiKey('carol')).key,
    ann: (await sample.evident.store.createApiKey('ann.lee')).key,
  };
  const env: NodeJS.ProcessEnv = { ...process.env, EVIDENT_ADMIN_KEY: ADMIN_KEY };
  delete env.EVIDENT_DB;
  delete env.EVIDENT_DATABASE_URL;
  delete env.EVIDENT_LLM;
  const started = await startServeProcess(['--db', sample.db], env);
  server = started.child;
  url = started.url;
  const client = (apiKey: string) => new Client({ apiUrl: url, apiKey, callerOptions: { maxRetries: 0 } });
  alice = client(keys.alice);
  bob = client(keys.bob);
  carol = client(keys.carol);
  admin = client(ADMIN_KEY);
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server?.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  await sample?.close();
});

/** A raw call: status, and the body as text (to compare answers byte for byte). */
async function raw(method: string, path: string, key: string, json?: unknown) {
  const response = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as Record<string, any>) : undefined };
}

/** The HTTP status an SDK call failed with, or `ok`. */
async function outcome(call: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

const getPath = (namespace: string[], key: string) =>
  `/store/items?namespace=${encodeURIComponent(namespace.join('.'))}&key=${encodeURIComponent(key)}`;

describe('the Store API with the LangGraph SDK', () => {
  it('puts, gets, searches, lists and deletes an item', async () => {
    const ns = ['users', 'alice', 'prefs'];
    await alice.store.putItem(ns, 'theme', { color: 'dark', size: 14 });
    const item = await alice.store.getItem(ns, 'theme');
    expect(item).toMatchObject({ namespace: ns, key: 'theme', value: { color: 'dark', size: 14 } });
    expect(Date.parse(item?.createdAt ?? '')).not.toBeNaN();
    expect(item?.updatedAt).toBe(item?.createdAt);

    await alice.store.putItem(ns, 'theme', { color: 'light' });
    const replaced = await alice.store.getItem(ns, 'theme');
    expect(replaced?.value).toEqual({ color: 'light' });
    expect(replaced?.createdAt).toBe(item?.createdAt);

    await alice.store.putItem(ns, 'language', { language: 'French', note: 'answers in French please' });
    const found = await alice.store.searchItems(['users', 'alice'], { query: 'French answers' });
    expect(found.items[0]).toMatchObject({ key: 'language', namespace: ns });
    expect(found.items[0]?.score).toBeGreaterThan(0);
    expect(
      (await alice.store.searchItems(['users', 'alice'], { filter: { color: 'light' } })).items.map((i) => i.key),
    ).toEqual(['theme']);
    expect((await alice.store.searchItems(['users', 'alice'], { limit: 1, offset: 1 })).items).toHaveLength(1);
    expect((await alice.store.listNamespaces({ prefix: ['users', 'alice'] })).namespaces).toEqual([ns]);
    expect((await alice.store.listNamespaces({ maxDepth: 2 })).namespaces).toEqual([['users', 'alice']]);

    await alice.store.deleteItem(ns, 'language');
    expect(await alice.store.getItem(ns, 'language')).toBeNull();
  });

  it("keeps alice's own namespace hers: bob cannot read, search, filter, list, delete or overwrite it, nor tell it from nothing", async () => {
    const ns = ['users', 'alice', 'secrets'];
    await alice.store.putItem(ns, 'badge', { badge: '4471', text: 'my badge number is 4471' });

    // Reads: an item that is hers answers exactly as one that does not exist.
    expect(await bob.store.getItem(ns, 'badge')).toBeNull();
    const hers = await raw('GET', getPath(ns, 'badge'), keys.bob);
    const none = await raw('GET', getPath(ns, 'no-such-key'), keys.bob);
    const noNamespace = await raw('GET', getPath(['users', 'nobody', 'x'], 'badge'), keys.bob);
    expect(hers).toEqual({ status: 200, text: 'null', json: null });
    expect(none).toEqual(hers);
    expect(noNamespace).toEqual(hers);
    // An admin is no exception: a user's own namespace is theirs alone.
    expect(await admin.store.getItem(ns, 'badge')).toBeNull();

    // Search, filter, query, wildcard and paging show nothing and count nothing.
    for (const options of [
      {},
      { query: 'badge number 4471' },
      { filter: { badge: '4471' } },
      { filter: { badge: { $gte: '0' } } },
      { limit: 100, offset: 0 },
    ]) {
      expect((await bob.store.searchItems(['users', 'alice'], options)).items).toEqual([]);
      expect((await bob.store.searchItems([], options)).items).toEqual([]);
      expect((await bob.store.searchItems(['users', '*'], options)).items).toEqual([]);
      expect((await admin.store.searchItems(['users'], options)).items).toEqual([]);
    }
    // Listing shows only what bob may read (nothing yet), whatever the prefix, suffix or depth.
    expect((await bob.store.listNamespaces()).namespaces).toEqual([]);
    expect((await bob.store.listNamespaces({ prefix: ['users', 'alice'] })).namespaces).toEqual([]);
    expect((await bob.store.listNamespaces({ suffix: ['secrets'] })).namespaces).toEqual([]);
    expect((await bob.store.listNamespaces({ maxDepth: 1 })).namespaces).toEqual([]);

    // Delete: the same 204 as for a missing key, and nothing is deleted.
    const deleteHers = await raw('DELETE', '/store/items', keys.bob, { namespace: ns, key: 'badge' });
    const deleteNone = await raw('DELETE', '/store/items', keys.bob, { namespace: ns, key: 'no-such-key' });
    expect(deleteHers).toEqual({ status: 204, text: '', json: undefined });
    expect(deleteNone).toEqual(deleteHers);
    await bob.store.deleteItem(ns, 'badge');
    expect((await alice.store.getItem(ns, 'badge'))?.value).toEqual({ badge: '4471', text: 'my badge number is 4471' });

    // Writes are refused, the same way for her existing key and for a new one.
    expect(await outcome(bob.store.putItem(ns, 'badge', { badge: '0000' }))).toBe(403);
    const overwrite = await raw('PUT', '/store/items', keys.bob, { namespace: ns, key: 'badge', value: { x: 1 } });
    const fresh = await raw('PUT', '/store/items', keys.bob, { namespace: ns, key: 'no-such-key', value: { x: 1 } });
    expect(overwrite.status).toBe(403);
    expect(overwrite.json?.error.code).toBe('namespace_forbidden');
    expect(fresh).toEqual(overwrite);
    expect(overwrite.text).not.toMatch(/4471|badge/);
    expect((await alice.store.getItem(ns, 'badge'))?.value).toMatchObject({ badge: '4471' });

    // bob's own namespace works for bob, and stays out of alice's view.
    await bob.store.putItem(['users', 'bob'], 'note', { text: 'bob was here' });
    expect((await bob.store.listNamespaces()).namespaces).toEqual([['users', 'bob']]);
    expect((await alice.store.listNamespaces()).namespaces).not.toContainEqual(['users', 'bob']);
  });

  it('shares a namespace under the ACL its owner sets, checked at each call', async () => {
    const ns = ['legal-team', 'faq'];
    await alice.store.putItem(ns, 'q1', { question: 'Who signs NDAs?', answer: 'Legal' });
    // New shared namespaces are private to their owner.
    expect(await carol.store.getItem(ns, 'q1')).toBeNull();
    expect((await carol.store.listNamespaces()).namespaces).toEqual([]);
    expect(await outcome(carol.store.putItem(ns, 'q2', { q: 'x' }))).toBe(403);
    const aclOfAbsent = await raw('GET', '/v1/store/namespaces/no-such-root/acl', keys.carol);
    const aclUnreadable = await raw('GET', '/v1/store/namespaces/legal-team/acl', keys.carol);
    expect(aclUnreadable.status).toBe(404);
    expect(aclUnreadable.json?.error.code).toBe(aclOfAbsent.json?.error.code);

    // alice lets group legal read: carol reads, lists and searches; bob (engineering) still sees nothing.
    const set = await raw('PUT', '/v1/store/namespaces/legal-team/acl', keys.alice, { read: ['group:legal'] });
    expect(set.json).toMatchObject({ namespace: ['legal-team'], owner: 'alice', read: ['group:legal'], write: [] });
    expect((await carol.store.getItem(ns, 'q1'))?.value).toMatchObject({ answer: 'Legal' });
    expect((await carol.store.listNamespaces()).namespaces).toEqual([ns]);
    expect((await carol.store.searchItems(['legal-team'], { query: 'NDAs' })).items.map((i) => i.key)).toEqual(['q1']);
    expect(await bob.store.getItem(ns, 'q1')).toBeNull();
    expect((await bob.store.searchItems(['legal-team'])).items).toEqual([]);
    // Reading is not writing: carol's delete of a visible item is refused, her put too.
    expect(await outcome(carol.store.deleteItem(ns, 'q1'))).toBe(403);
    expect(await outcome(carol.store.putItem(ns, 'q2', { q: 'x' }))).toBe(403);
    // Only the owner (or an admin) changes the ACL.
    expect(
      (await raw('PUT', '/v1/store/namespaces/legal-team/acl', keys.carol, { write: ['user:carol'] })).status,
    ).toBe(403);
    expect((await raw('PUT', '/v1/store/namespaces/legal-team/acl', keys.bob, { read: ['user:bob'] })).status).toBe(
      403,
    );

    await raw('PUT', '/v1/store/namespaces/legal-team/acl', keys.alice, { read: [], write: ['group:legal'] });
    await carol.store.putItem(ns, 'q2', { question: 'Where are contracts kept?' });
    expect((await alice.store.searchItems(['legal-team'])).items.map((i) => i.key)).toEqual(['q2', 'q1']);

    // An admin revokes: carol loses access at her next call.
    await raw('PUT', '/v1/store/namespaces/legal-team/acl', ADMIN_KEY, { read: [], write: [] });
    expect(await carol.store.getItem(ns, 'q2')).toBeNull();
    expect(await outcome(carol.store.putItem(ns, 'q3', { q: 'x' }))).toBe(403);
    expect((await alice.store.getItem(ns, 'q2'))?.value).toMatchObject({ question: 'Where are contracts kept?' });

    // Every ACL change is audited (the refused ones changed nothing and are not).
    const audit = await raw('GET', '/v1/audit?action=store.acl', ADMIN_KEY);
    expect(
      (audit.json?.entries as { actor: string; target: string; outcome: string }[]).map((e) => [
        e.actor,
        e.target,
        e.outcome,
      ]),
    ).toEqual([
      ['evident:admin-key', 'legal-team', 'changed'],
      ['alice', 'legal-team', 'changed'],
      ['alice', 'legal-team', 'changed'],
    ]);
  });

  it('expires an item after its ttl (minutes, as the SDK sends it)', async () => {
    const ns = ['users', 'alice', 'ttl'];
    // 0.03 minutes: 1.8 s.
    await alice.store.putItem(ns, 'brief', { v: 1 }, { ttl: 0.03 });
    await alice.store.putItem(ns, 'lasting', { v: 2 }, { ttl: 60 });
    expect(await alice.store.getItem(ns, 'brief')).not.toBeNull();
    await sleep(2_000);
    expect(await alice.store.getItem(ns, 'brief', { refreshTtl: true })).toBeNull();
    expect((await alice.store.searchItems(ns)).items.map((i) => i.key)).toEqual(['lasting']);
    expect((await alice.store.getItem(ns, 'lasting', { refreshTtl: true }))?.value).toEqual({ v: 2 });
    // The expired row is still in the file until a write sweeps it; the next put (anyone's) does.
    const rows = () => {
      const db = new Database(sample.db, { readonly: true });
      try {
        return (db.prepare("SELECT count(*) AS n FROM store_items WHERE key = 'brief'").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    expect(rows()).toBe(1);
    await bob.store.putItem(['users', 'bob'], 'sweeper', { v: 1 });
    expect(rows()).toBe(0);
  });

  it('reads a dotted user id as one label of its own namespace in a GET (whose labels are joined with dots)', async () => {
    const ns = ['users', 'ann.lee', 'prefs'];
    expect((await raw('PUT', '/store/items', keys.ann, { namespace: ns, key: 'k', value: { v: 1 } })).status).toBe(204);
    const read = await raw('GET', getPath(ns, 'k'), keys.ann);
    expect(read.json).toMatchObject({ namespace: ns, key: 'k', value: { v: 1 } });
    expect((await raw('POST', '/store/namespaces', keys.ann, {})).json).toEqual({ namespaces: [ns] });
    // Anyone else reads the same text as four labels, or gets nothing: never ann's item.
    expect((await raw('GET', getPath(ns, 'k'), keys.bob)).text).toBe('null');
    expect((await raw('GET', getPath(ns, 'k'), ADMIN_KEY)).text).toBe('null');
    expect(
      (await raw('PUT', '/store/items', keys.bob, { namespace: ['users', 'ann', 'lee', 'prefs'], key: 'k', value: {} }))
        .status,
    ).toBe(403);
  });

  it('bounds namespaces, keys, values and pages', async () => {
    const put = (body: unknown) => raw('PUT', '/store/items', keys.alice, body);
    const ok = { namespace: ['users', 'alice'], key: 'k', value: { a: 1 } };
    expect((await put(ok)).status).toBe(204);
    expect((await put({ ...ok, namespace: ['users', 'alice', 'a.b'] })).status).toBe(400);
    expect((await put({ ...ok, namespace: [] })).status).toBe(400);
    expect((await put({ ...ok, namespace: Array.from({ length: 11 }, () => 'x') })).status).toBe(400);
    expect((await put({ ...ok, key: 'k'.repeat(513) })).status).toBe(400);
    expect((await put({ ...ok, value: [1, 2] })).status).toBe(400);
    expect((await put({ ...ok, value: { big: 'x'.repeat(70_000) } })).status).toBe(400);
    expect((await put({ ...ok, ttl: -5 })).status).toBe(400);
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = { d: deep };
    expect((await put({ ...ok, value: deep })).status).toBe(400);
    const search = (body: unknown) => raw('POST', '/store/items/search', keys.alice, body);
    expect((await search({ limit: 101 })).status).toBe(400);
    expect((await search({ offset: 10_001 })).status).toBe(400);
    expect((await search({ query: 'x'.repeat(100_000) })).json?.error.code).toBe('input_too_large');
    expect((await raw('POST', '/store/namespaces', keys.alice, { limit: 1001 })).status).toBe(400);
    expect((await raw('POST', '/store/namespaces', keys.alice, { max_depth: 0 })).status).toBe(400);
    expect((await raw('GET', '/store/items?key=k', keys.alice)).status).toBe(400);
    expect((await fetch(`${url}/store/items/search`, { method: 'POST', body: '{}' })).status).toBe(401);
  });
});

describe('one store: the agents’ memories are Store API items', () => {
  it('shows a memory the rag agent saved (after approval) as an item of the user’s namespace, to that user only', async () => {
    const thread = await alice.threads.create();
    await alice.runs.wait(thread.thread_id, 'rag', {
      input: { messages: [{ role: 'user', content: 'Remember that my parking spot is P-204' }] },
    });
    expect((await alice.threads.get(thread.thread_id)).status).toBe('interrupted');
    await alice.runs.wait(thread.thread_id, 'rag', { command: { resume: { decision: 'approve' } } });

    const { items } = await alice.store.searchItems(['users', 'alice', 'memories']);
    expect(items.map((item) => item.value)).toContainEqual({
      text: 'My parking spot is P-204',
      source: `thread:${thread.thread_id}`,
    });
    const saved = items.find((item) => item.value.text === 'My parking spot is P-204');
    expect(saved?.namespace).toEqual(['users', 'alice', 'memories']);
    // The memories route lists the same item.
    const listed = await raw('GET', '/v1/memories', keys.alice);
    expect(listed.json?.memories).toContainEqual(
      expect.objectContaining({
        text: 'My parking spot is P-204',
        namespace: ['users', 'alice', 'memories'],
        key: saved?.key,
      }),
    );
    expect(await bob.store.getItem(['users', 'alice', 'memories'], saved?.key ?? '')).toBeNull();
    // Deleted through the Store API, it is no memory any more.
    await alice.store.deleteItem(['users', 'alice', 'memories'], saved?.key ?? '');
    expect((await raw('GET', '/v1/memories', keys.alice)).json?.memories).not.toContainEqual(
      expect.objectContaining({ key: saved?.key }),
    );
  });

  it("recalls an item put through the Store API in the rag agent's memory step (offline), for its owner only", async () => {
    await alice.store.putItem(['users', 'alice', 'notes'], 'billing', {
      text: 'Invoices for contract CT-2024-0193 are billed to cost centre QX-7731',
    });
    const question = 'Which cost centre are invoices for contract CT-2024-0193 billed to?';
    const ask = async (client: Client) => {
      const thread = await client.threads.create();
      return (await client.runs.wait(thread.thread_id, 'rag', {
        input: { messages: [{ role: 'user', content: question }] },
      })) as { memories: { text: string }[]; mode: string };
    };
    const hers = await ask(alice);
    expect(hers.mode).toBe('offline');
    expect(hers.memories.map((memory) => memory.text)).toContain(
      'Invoices for contract CT-2024-0193 are billed to cost centre QX-7731',
    );
    const his = await ask(bob);
    expect(JSON.stringify(his.memories)).not.toContain('QX-7731');
    // An item put with index: false is stored, but no memory.
    await alice.store.putItem(['users', 'alice', 'notes'], 'billing', { text: 'QX-7731 billing' }, { index: false });
    expect((await ask(alice)).memories.map((memory) => memory.text).join('\n')).not.toContain('QX-7731');
  });
});
