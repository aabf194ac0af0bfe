import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';

let api: ApiTestServer;
let rootKey: string;

const patch = (name: string, json: unknown, key = rootKey) =>
  api.request('PATCH', `/v1/users/${encodeURIComponent(name)}`, { key, json });
const me = (key: string) => api.request('GET', '/v1/me', { key });

beforeAll(async () => {
  api = await startApiTestServer({ corpus: false });
  await api.evident.store.upsertUser({ name: 'root', groups: [], roles: ['admin'] });
  rootKey = (await api.evident.store.createApiKey('root')).key;
});
afterAll(async () => api?.close());

describe('PATCH /v1/users/{name}', () => {
  it('deactivates a user (their key is refused at once, their sessions end) and reactivates them, each change audited', async () => {
    expect((await me(api.keys.alice)).status).toBe(200);
    const signedIn = await api.request('POST', '/v1/sessions', { json: { api_key: api.keys.alice } });
    expect(signedIn.status).toBe(201);
    const cookie = /evident_session=[^;]*/.exec(signedIn.headers.get('set-cookie') ?? '')?.[0] ?? '';
    expect((await api.request('GET', '/v1/me', { headers: { cookie } })).status).toBe(200);

    const off = await patch('alice', { active: false });
    expect(off.status, off.text).toBe(200);
    expect(off.json).toEqual({
      user: { name: 'alice', groups: ['legal'], roles: ['member'], active: false, created_at: expect.any(String) },
    });
    expect((await me(api.keys.alice)).status).toBe(401);
    const listed = (await api.request('GET', '/v1/users', { key: rootKey })).json as {
      users: { name: string; active: boolean }[];
    };
    expect(listed.users.find((u) => u.name === 'alice')?.active).toBe(false);

    const on = await patch('alice', { active: true });
    expect(on.status, on.text).toBe(200);
    expect((on.json as { user: { active: boolean } }).user.active).toBe(true);
    expect((await me(api.keys.alice)).status).toBe(200);
    // The session the deactivation ended does not come back with the user.
    expect((await api.request('GET', '/v1/me', { headers: { cookie } })).status).toBe(401);

    const entries = await api.evident.store.listAudit({ actor: 'root', limit: 10 });
    expect(entries.map((e) => [e.action, e.target, e.surface])).toEqual([
      ['user.activate', 'alice', 'http'],
      ['user.deactivate', 'alice', 'http'],
    ]);
  });

  it('is refused to a member (403) and without a key (401), changing nothing', async () => {
    expect((await patch('alice', { active: false }, api.keys.bob)).status).toBe(403);
    expect((await api.request('PATCH', '/v1/users/alice', { json: { active: false } })).status).toBe(401);
    expect((await api.evident.store.getUser('alice'))?.active).toBe(true);
  });

  it('refuses an admin deactivating themselves, an unknown user, and a body other than {active: boolean}', async () => {
    const self = await patch('root', { active: false });
    expect(self.status).toBe(400);
    expect(self.text).toContain('another admin');
    expect((await api.evident.store.getUser('root'))?.active).toBe(true);

    const unknown = await patch('nobody', { active: false });
    expect(unknown.status).toBe(404);
    const longName = await patch('x'.repeat(5000), { active: false });
    expect(longName.status).toBe(404);
    expect(longName.text.length).toBeLessThan(1000);

    for (const body of [{ active: 'no' }, {}, { active: false, groups: ['legal'] }, { active: null }]) {
      const refused = await patch('alice', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.evident.store.getUser('alice'))?.active).toBe(true);
    expect((await me(api.keys.alice)).status).toBe(200);
  });
});
