import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { runCli } from '../testing/run-cli.ts';
import { createApp } from './create-app.ts';
import { startServer, type RunningServer } from './start-server.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN_KEY = 'test-admin-key-0123456789';
/** Text of CT-2024-0193 that only legal (and carol) may read. */
const CONTRACT_TEXT = 'fixed monthly platform fee of $12,500';

let dir: string;
let db: string;
let evident: Evident;
let server: RunningServer;
let aliceKey: string;
let bobKey: string;

interface Sent {
  status: number;
  body: { error?: { code: string; message: string; hint: string | null } } & Record<string, unknown>;
  text: string;
}

async function send(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; header?: 'bearer' | 'x-api-key' } = {},
): Promise<Sent> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) {
    if (options.header === 'x-api-key') headers['x-api-key'] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(server.url + path, {
    method,
    headers,
    ...(options.body === undefined
      ? {}
      : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Sent['body'], text };
}

const search = (key: string, query: string) => send('POST', '/v1/search', { key, body: { query, top_k: 10 } });
const docIds = (sent: Sent) => (sent.body.results as { doc_id: string }[]).map((r) => r.doc_id);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-server-'));
  db = join(dir, 'store.db');
  evident = await createEvident(loadConfig({ flags: { db }, env: {}, cwd: dir }));
  for (const user of [
    { name: 'alice', groups: ['legal'] },
    { name: 'bob', groups: ['engineering'] },
  ]) {
    await evident.store.upsertUser(user);
  }
  const summary = await evident.ingestor.ingest([join(root, 'samples/corpus')]);
  expect(summary.failed).toBe(0);
  aliceKey = (await evident.store.createApiKey('alice')).key;
  bobKey = (await evident.store.createApiKey('bob')).key;
  server = await startServer(createApp({ evident, adminKey: ADMIN_KEY }), { port: 0 });
});

afterAll(async () => {
  await server?.close();
  await evident?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the HTTP API over the sample corpus', () => {
  it('listens on loopback and answers /health without a key', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await send('GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('says who a key acts as, with Bearer or x-api-key', async () => {
    expect((await send('GET', '/v1/me', { key: aliceKey })).body).toEqual({
      user: 'alice',
      groups: ['legal'],
      roles: ['member'],
    });
    expect((await send('GET', '/v1/me', { key: bobKey, header: 'x-api-key' })).body.user).toBe('bob');
    expect((await send('GET', '/v1/me', { key: ADMIN_KEY })).body.roles).toEqual(['admin']);
  });

  it("searches as the key's principal: alice (legal) finds CT-2024-0193, bob never sees its text", async () => {
    const alice = await search(aliceKey, 'CT-2024-0193 monthly platform fee');
    expect(alice.status).toBe(200);
    expect(docIds(alice)).toContain('contracts/ct-2024-0193.md');
    expect(alice.text).toContain(CONTRACT_TEXT);
    const first = (alice.body.results as Record<string, unknown>[])[0];
    expect(Object.keys(first ?? {}).sort()).toEqual([
      'channels',
      'chunk_id',
      'doc_id',
      'heading',
      'page',
      'rank',
      'rerank_score',
      'score',
      'source',
      'text',
    ]);

    const bob = await search(bobKey, 'CT-2024-0193 monthly platform fee');
    expect(bob.status).toBe(200);
    expect(docIds(bob)).not.toContain('contracts/ct-2024-0193.md');
    expect(bob.text).not.toContain(CONTRACT_TEXT);
    expect(bob.text).not.toContain('12,500');
  });

  it('lists only the documents the key may see', async () => {
    const ids = async (key: string) =>
      ((await send('GET', '/v1/documents', { key })).body.documents as { doc_id: string }[]).map((d) => d.doc_id);
    expect(await ids(aliceKey)).toContain('contracts/ct-2024-0193.md');
    const bobs = await ids(bobKey);
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs).not.toContain('contracts/ct-2024-0193.md');
  });

  it('pages the document listing by doc_id with a bound, and refuses a limit past it', async () => {
    const all = ((await send('GET', '/v1/documents', { key: aliceKey })).body.documents as { doc_id: string }[]).map(
      (d) => d.doc_id,
    );
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page = (await send('GET', `/v1/documents${query}`, { key: aliceKey })).body as {
        documents: { doc_id: string }[];
        next_cursor: string | null;
      };
      expect(page.documents.length).toBeLessThanOrEqual(2);
      paged.push(...page.documents.map((d) => d.doc_id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(paged).toEqual(all);
    for (const query of ['?limit=0', '?limit=1001', '?limit=many', `?cursor=${'x'.repeat(600)}`])
      expect((await send('GET', `/v1/documents${query}`, { key: aliceKey })).status, query).toBe(400);
  });

  it('validates search input with 400 and a JSON error', async () => {
    for (const body of [
      {},
      { query: '  ' },
      { query: 'x', top_k: 0 },
      { query: 'x', channels: ['sql'] },
      { query: 'x', extra: 1 },
      'not json',
    ]) {
      const sent = await send('POST', '/v1/search', { key: aliceKey, body });
      expect(sent.status, JSON.stringify(body)).toBe(400);
      expect(sent.body.error?.code).toBe('invalid_input');
    }
  });

  describe('refuses without a valid key on every route, and members on admin routes', () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/me'],
      ['POST', '/v1/search', { query: 'CT-2024-0193 platform fee' }],
      ['GET', '/v1/documents'],
      ['DELETE', '/v1/documents/contracts/ct-2024-0193.md'],
      ['GET', '/v1/users'],
      ['POST', '/v1/users', { name: 'mallory', groups: ['legal'] }],
      ['GET', '/v1/users/alice/keys'],
      ['POST', '/v1/users/alice/keys'],
      ['DELETE', '/v1/keys/abc'],
    ];
    const adminOnly = new Set([
      'DELETE /v1/documents/contracts/ct-2024-0193.md',
      'GET /v1/users',
      'POST /v1/users',
      'GET /v1/users/alice/keys',
      'POST /v1/users/alice/keys',
      'DELETE /v1/keys/abc',
    ]);

    it.each(routes)('%s %s: 401 with no key or a bad key', async (method, path, body) => {
      for (const key of [undefined, 'evk_wrong', '', ADMIN_KEY + 'x']) {
        const sent = await send(method, path, {
          ...(key === undefined ? {} : { key }),
          ...(body === undefined ? {} : { body }),
        });
        expect(sent.status, String(key)).toBe(401);
        expect(sent.body.error).toMatchObject({ code: 'unauthorized' });
        expect(sent.text).not.toContain(CONTRACT_TEXT);
      }
      const badBearer = await fetch(server.url + path, { method, headers: { authorization: `Basic ${aliceKey}` } });
      expect(badBearer.status).toBe(401);
    });

    it.each(routes.filter(([method, path]) => adminOnly.has(`${method} ${path}`)))(
      '%s %s: 403 for a member',
      async (method, path, body) => {
        const sent = await send(method, path, { key: bobKey, ...(body === undefined ? {} : { body }) });
        expect(sent.status).toBe(403);
        expect(sent.body.error).toMatchObject({ code: 'forbidden' });
        expect(sent.text).not.toContain(CONTRACT_TEXT);
      },
    );

    it('left everything in place', async () => {
      expect(await evident.store.getDocument('contracts/ct-2024-0193.md')).toBeDefined();
      expect(await evident.store.getUser('mallory')).toBeUndefined();
      expect(await evident.store.listApiKeys('alice')).toHaveLength(1);
    });
  });

  it('answers unknown routes and ids with 404 JSON', async () => {
    expect((await send('GET', '/v1/nothing-here', { key: aliceKey })).status).toBe(404);
    expect((await send('GET', '/nothing-here')).body.error?.code).toBe('not_found');
    expect((await send('DELETE', '/v1/documents/no/such.md', { key: ADMIN_KEY })).status).toBe(404);
    expect((await send('POST', '/v1/users/nobody/keys', { key: ADMIN_KEY })).status).toBe(404);
    expect((await send('DELETE', '/v1/keys/no-such-key', { key: ADMIN_KEY })).status).toBe(404);
  });

  it('lets an admin create a user and a key that then works, list and revoke it', async () => {
    const created = await send('POST', '/v1/users', { key: ADMIN_KEY, body: { name: 'lena', groups: ['legal'] } });
    expect(created).toMatchObject({
      status: 201,
      body: { user: { name: 'lena', groups: ['legal'], roles: ['member'] } },
    });
    expect((await send('POST', '/v1/users', { key: ADMIN_KEY, body: { name: 'bad name' } })).status).toBe(400);
    const users = (await send('GET', '/v1/users', { key: ADMIN_KEY })).body.users as { name: string }[];
    expect(users.map((u) => u.name)).toEqual(['alice', 'bob', 'lena']);

    const keyed = await send('POST', '/v1/users/lena/keys', { key: ADMIN_KEY });
    expect(keyed.status).toBe(201);
    const key = keyed.body.key as string;
    expect((await send('GET', '/v1/me', { key })).body.user).toBe('lena');
    expect(docIds(await search(key, 'CT-2024-0193 monthly platform fee'))).toContain('contracts/ct-2024-0193.md');

    const listed = await send('GET', '/v1/users/lena/keys', { key: ADMIN_KEY });
    expect(listed.body.keys).toEqual([expect.objectContaining({ id: keyed.body.id, user: 'lena' })]);
    expect(listed.text).not.toContain(key);
    expect((await send('DELETE', `/v1/keys/${String(keyed.body.id)}`, { key: ADMIN_KEY })).status).toBe(200);
    expect((await send('GET', '/v1/me', { key })).status).toBe(401);
  });

  it('prints a working key from `evident keys create`, once', async () => {
    const run = await runCli(['--db', db, 'keys', 'create', 'bob']);
    expect(run.code, run.stderr).toBe(0);
    const key = run.stdout.trim().split('\n')[0] ?? '';
    expect(key).toMatch(/^evk_/);
    expect((await send('GET', '/v1/me', { key })).body.user).toBe('bob');
    const listed = await runCli(['--db', db, 'keys', 'list', 'bob']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key);
    expect((await runCli(['--db', db, 'keys', 'create', 'nobody'])).code).toBe(1);
  });

  it('lets an admin delete a document, after which nobody finds it', async () => {
    const deleted = await send('DELETE', '/v1/documents/contracts/ct-2024-0193.md', { key: ADMIN_KEY });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: 'contracts/ct-2024-0193.md' } });
    expect(docIds(await search(aliceKey, 'CT-2024-0193 monthly platform fee'))).not.toContain(
      'contracts/ct-2024-0193.md',
    );
  });
});
