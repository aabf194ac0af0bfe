import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';

/** The session cookie over real HTTP on 127.0.0.1 against a real SQLite file: sign-in, CSRF, revocation, framing. */
let api: ApiTestServer;
let proxied: ApiTestServer;

const cookieOf = (response: { headers: Headers }) => {
  const set = response.headers.get('set-cookie') ?? '';
  const value = /evident_session=([^;]*)/.exec(set)?.[1];
  if (!value) throw new Error(`no session cookie in ${set}`);
  return `evident_session=${value}`;
};

async function signIn(server: ApiTestServer, key: string, headers: Record<string, string> = {}) {
  const response = await server.request('POST', '/v1/sessions', { json: { api_key: key }, headers });
  expect(response.status).toBe(201);
  const body = response.json as { csrf_token: string; id: string; user: string; expires_at: string };
  return { cookie: cookieOf(response), csrf: body.csrf_token, id: body.id, body, response };
}

const item = { namespace: ['users', 'alice', 'prefs'], key: 'colour', value: { colour: 'blue' } };
const readItem = async (cookie: string) =>
  (await api.request('GET', '/store/items?namespace=users.alice.prefs&key=colour', { headers: { cookie } })).json;

beforeAll(async () => {
  api = await startApiTestServer({ corpus: false });
  proxied = await startApiTestServer({ corpus: false, env: { EVIDENT_SESSIONS_TRUST_FORWARDED_HEADERS: 'true' } });
});
afterAll(async () => {
  await api?.close();
  await proxied?.close();
});

describe('signing in with a key', () => {
  it('sets an HttpOnly, SameSite=Lax cookie for / and answers the session, never the key', async () => {
    const { response, body, cookie } = await signIn(api, api.keys.alice);
    const set = response.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^evident_session=evs_[A-Za-z0-9_-]{43};/);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Lax');
    expect(set).toContain('Path=/');
    expect(set).toMatch(/Max-Age=43200/);
    // Plain HTTP: no Secure, or the browser would drop the cookie.
    expect(set).not.toContain('Secure');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(body).toMatchObject({ user: 'alice', via: 'key' });
    expect(response.text).not.toContain(api.keys.alice);

    const me = await api.request('GET', '/v1/me', { headers: { cookie } });
    expect(me.json).toEqual({ user: 'alice', groups: ['legal'], roles: ['member'], csrf_token: body.csrf_token });
    const withKey = await api.request('GET', '/v1/me', { key: api.keys.alice });
    expect(withKey.json).toEqual({ user: 'alice', groups: ['legal'], roles: ['member'] });
    const current = await api.request('GET', '/v1/sessions/current', { headers: { cookie } });
    expect(current.json).toMatchObject({ id: body.id, csrf_token: body.csrf_token });
    expect((await api.request('GET', '/v1/sessions/current', { key: api.keys.alice })).status).toBe(404);
  });

  it('takes the key from the header too; refuses a wrong key, the admin key, an oversized body', async () => {
    const byHeader = await api.request('POST', '/v1/sessions', { key: api.keys.bob, json: {} });
    expect(byHeader.status).toBe(201);
    expect((byHeader.json as { user: string }).user).toBe('bob');
    const wrong = await api.request('POST', '/v1/sessions', { json: { api_key: 'evk_not-a-key' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const admin = await api.request('POST', '/v1/sessions', { json: { api_key: api.keys.admin } });
    expect(admin.status).toBe(400);
    expect((admin.json as { error: { hint: string } }).error.hint).toContain('evident keys create');
    expect((await api.request('POST', '/v1/sessions', { json: { api_key: 'x'.repeat(300) } })).status).toBe(400);
    expect((await api.request('POST', '/v1/sessions', { json: { api_key: api.keys.alice, extra: 1 } })).status).toBe(
      400,
    );
    // A sign-in another site makes the browser send (login CSRF) is refused.
    const foreign = await api.request('POST', '/v1/sessions', {
      json: { api_key: api.keys.alice },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect((foreign.json as { error: { code: string } }).error.code).toBe('csrf_rejected');
  });

  it('marks the cookie Secure behind an HTTPS proxy only when its forwarded headers are trusted', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const untrusted = await signIn(api, api.keys.alice, https);
    expect(untrusted.response.headers.get('set-cookie')).not.toContain('Secure');
    const trusted = await signIn(proxied, proxied.keys.alice, https);
    expect(trusted.response.headers.get('set-cookie')).toContain('Secure');
    // Behind the proxy the page's origin is https://<forwarded host>: that is this server, any other is not.
    const host = {
      ...https,
      'x-forwarded-host': 'evident.example.com',
      cookie: trusted.cookie,
      'x-csrf-token': trusted.csrf,
    };
    const put = (origin: string) =>
      proxied.request('PUT', '/store/items', { json: item, headers: { ...host, origin } });
    expect((await put('http://evident.example.com')).status).toBe(403);
    expect((await put('https://evident.example.com')).status).toBe(204);
  });
});

describe('CSRF on cookie requests', () => {
  it('refuses a cross-site form post or a write without the right token, and takes the UI request', async () => {
    const { cookie, csrf } = await signIn(api, api.keys.alice);
    const origin = api.url;
    const put = (headers: Record<string, string>) => api.request('PUT', '/store/items', { json: item, headers });
    const refused = async (headers: Record<string, string>, reason: RegExp) => {
      const response = await put({ cookie, ...headers });
      expect(response.status).toBe(403);
      const error = (response.json as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('csrf_rejected');
      expect(error.message).toMatch(reason);
    };
    await refused({ origin }, /no x-csrf-token/);
    await refused({ origin, 'x-csrf-token': `${csrf}x` }, /x-csrf-token is wrong/);
    await refused({ origin, 'x-csrf-token': '' }, /no x-csrf-token/);
    await refused({ origin: 'https://evil.example', 'x-csrf-token': csrf }, /Origin is not this server/);
    await refused({ origin: 'null', 'x-csrf-token': csrf }, /Origin/);
    await refused({ 'sec-fetch-site': 'cross-site', 'x-csrf-token': csrf }, /another site/);
    await refused({ 'sec-fetch-site': 'same-site', 'x-csrf-token': csrf }, /another site/);
    expect(await readItem(cookie)).toBeNull();

    // A form another site posts: urlencoded, its Origin, the browser's cookie, no token.
    const form = await fetch(`${api.url}/v1/sessions/current`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'x=1',
    });
    expect(form.status).toBe(403);
    const deleted = await fetch(`${api.url}/v1/sessions/current`, {
      method: 'DELETE',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(deleted.status).toBe(403);
    expect((await api.request('GET', '/v1/me', { headers: { cookie } })).status).toBe(200);

    const ok = await put({ cookie, origin, 'sec-fetch-site': 'same-origin', 'x-csrf-token': csrf });
    expect(ok.status).toBe(204);
    expect(await readItem(cookie)).toMatchObject({ key: 'colour', value: { colour: 'blue' } });
    // A client that sends neither Origin nor Sec-Fetch-Site is judged by the token alone.
    expect((await put({ cookie, 'x-csrf-token': csrf })).status).toBe(204);
  });

  it('needs no CSRF token for a request made with a key, even with a cookie and a foreign Origin', async () => {
    const { cookie } = await signIn(api, api.keys.alice);
    const response = await api.request('PUT', '/store/items', {
      key: api.keys.alice,
      json: item,
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(204);
    // A wrong key never falls back to the cookie.
    const wrongKey = await api.request('GET', '/v1/me', { key: 'evk_wrong', headers: { cookie } });
    expect(wrongKey.status).toBe(401);
  });
});

describe('ending sessions', () => {
  it('signs out: the session ends at once and the cookie is cleared', async () => {
    const { cookie, csrf, id } = await signIn(api, api.keys.alice);
    const out = await api.request('DELETE', '/v1/sessions/current', {
      headers: { cookie, origin: api.url, 'x-csrf-token': csrf },
    });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ revoked: id });
    expect(out.headers.get('set-cookie')).toMatch(/^evident_session=;.*Max-Age=0/);
    expect((await api.request('GET', '/v1/me', { headers: { cookie } })).status).toBe(401);
  });

  it('refuses an expired or idle session', async () => {
    await api.evident.store.upsertUser({ name: 'erin', groups: ['legal'] });
    const short = await api.evident.store.createSession({ user: 'erin', via: 'key', ttlMs: 300, idleMs: 60_000 });
    const idle = await api.evident.store.createSession({ user: 'erin', via: 'key', ttlMs: 60_000, idleMs: 300 });
    const fresh = await api.evident.store.createSession({ user: 'erin', via: 'key', ttlMs: 60_000, idleMs: 60_000 });
    const me = (token: string) => api.request('GET', '/v1/me', { headers: { cookie: `evident_session=${token}` } });
    expect((await me(short.token)).status).toBe(200);
    await new Promise((done) => setTimeout(done, 400));
    expect((await me(short.token)).status).toBe(401);
    expect((await me(idle.token)).status).toBe(401);
    expect((await me(fresh.token)).status).toBe(200);
    expect((await me('evs_made-up')).status).toBe(401);
  });

  it('lets an admin list sessions and revoke one at once, audited; members may not', async () => {
    const alice = await signIn(api, api.keys.alice);
    const second = await signIn(api, api.keys.alice);
    const mine = await api.request('GET', '/v1/sessions/mine', { headers: { cookie: alice.cookie } });
    const listed = (mine.json as { sessions: { id: string; current: boolean; user: string }[] }).sessions;
    expect(listed.find((s) => s.id === alice.id)?.current).toBe(true);
    expect(listed.find((s) => s.id === second.id)?.current).toBe(false);
    expect(listed.every((s) => s.user === 'alice')).toBe(true);
    expect(mine.text).not.toContain(alice.csrf);

    expect((await api.request('GET', '/v1/sessions', { key: api.keys.alice })).status).toBe(403);
    const revokeAsMember = await api.request('DELETE', `/v1/sessions/${second.id}`, {
      headers: { cookie: alice.cookie, origin: api.url, 'x-csrf-token': alice.csrf },
    });
    expect(revokeAsMember.status).toBe(403);

    const page = await api.request('GET', '/v1/sessions?user=alice&limit=1', { key: api.keys.admin });
    const first = page.json as { sessions: { id: string }[]; next_cursor: string | null };
    expect(first.sessions.map((s) => s.id)).toEqual([second.id]);
    expect(first.next_cursor).not.toBeNull();
    const next = await api.request('GET', `/v1/sessions?user=alice&limit=1&cursor=${first.next_cursor}`, {
      key: api.keys.admin,
    });
    expect((next.json as { sessions: { id: string }[] }).sessions.map((s) => s.id)).toEqual([alice.id]);
    expect((await api.request('GET', '/v1/sessions?limit=201', { key: api.keys.admin })).status).toBe(400);
    expect((await api.request('GET', '/v1/sessions?cursor=abc', { key: api.keys.admin })).status).toBe(400);
    expect((await api.request('GET', '/v1/sessions?color=red', { key: api.keys.admin })).status).toBe(400);

    const revoked = await api.request('DELETE', `/v1/sessions/${alice.id}`, { key: api.keys.admin });
    expect(revoked.json).toEqual({ revoked: alice.id, user: 'alice' });
    expect((await api.request('GET', '/v1/me', { headers: { cookie: alice.cookie } })).status).toBe(401);
    expect((await api.request('GET', '/v1/me', { headers: { cookie: second.cookie } })).status).toBe(200);
    expect((await api.request('DELETE', `/v1/sessions/${alice.id}`, { key: api.keys.admin })).status).toBe(404);
    const audit = await api.request('GET', '/v1/audit?action=session.revoke', { key: api.keys.admin });
    expect((audit.json as { entries: unknown[] }).entries).toEqual([
      expect.objectContaining({ action: 'session.revoke', target: alice.id, outcome: 'of alice' }),
    ]);
  });

  it("refuses a session at once when its user is removed or deactivated, and follows the user's groups", async () => {
    await api.evident.store.upsertUser({ name: 'fay', groups: ['legal'] });
    await api.evident.store.upsertUser({ name: 'gus', groups: ['legal'] });
    const fay = await signIn(api, (await api.evident.store.createApiKey('fay')).key);
    const gus = await signIn(api, (await api.evident.store.createApiKey('gus')).key);
    await api.evident.store.upsertUser({ name: 'fay', groups: ['hr'] });
    expect((await api.request('GET', '/v1/me', { headers: { cookie: fay.cookie } })).json).toMatchObject({
      groups: ['hr'],
    });

    // Straight in the file, as another process (or a directory sync) would: the session row stays, the user goes.
    const db = new Database(api.evident.store.location);
    try {
      db.pragma('foreign_keys = OFF');
      db.prepare('DELETE FROM users WHERE name = ?').run('fay');
      const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('users') as { name: string }[];
      // The active flag comes with the directory migration; before it, removal is the only way to end a user.
      if (columns.some((c) => c.name === 'active')) {
        db.prepare('UPDATE users SET active = 0 WHERE name = ?').run('gus');
        expect((await api.request('GET', '/v1/me', { headers: { cookie: gus.cookie } })).status).toBe(401);
      } else {
        db.prepare('DELETE FROM users WHERE name = ?').run('gus');
        expect((await api.request('GET', '/v1/me', { headers: { cookie: gus.cookie } })).status).toBe(401);
      }
    } finally {
      db.close();
    }
    expect((await api.request('GET', '/v1/me', { headers: { cookie: fay.cookie } })).status).toBe(401);
  });
});

describe('framing and secure headers', () => {
  it('no page of the server may be framed', async () => {
    for (const [path, init] of [
      ['/', {}],
      ['/v1/me', { key: api.keys.alice }],
      ['/v1/nothing-here', {}],
      ['/docs', {}],
    ] as const) {
      const response = await api.request('GET', path, init);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    // The docs page keeps its own stricter policy.
    expect((await api.request('GET', '/docs')).headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});
