import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CookieJar,
  providerAccessToken,
  send,
  signInAtProvider,
  signInToEvident,
  startEvidentSignIn,
} from '../../testing/oidc-http-flow.ts';
import { OIDC_TEST_AUDIENCE, startOidcEvident, type OidcEvidentServer } from '../../testing/oidc-evident-server.ts';

/** A contract only `group:legal` (and carol) may read, and the question that finds it. */
const LEGAL_DOC = 'contracts/ct-2024-0193.md';
const LEGAL_QUERY = 'termination fee CT-2024-0193';

let server: OidcEvidentServer;

const api = (jar: CookieJar, path: string) => send(jar, `${server.url}${path}`);
const bearer = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
const search = (token: string) =>
  bearer(token, '/v1/search', { method: 'POST', body: JSON.stringify({ query: LEGAL_QUERY }) });

async function docIdsOf(jar: CookieJar): Promise<string[]> {
  const response = await api(jar, '/v1/documents');
  expect(response.status).toBe(200);
  const body = (await response.json()) as { documents: { doc_id: string }[] };
  return body.documents.map((d) => d.doc_id);
}

/** Signs a JWT with the provider's own key (as the provider would), with `change` applied to `payload`. */
const signAsProvider = (payload: JWTPayload) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: server.provider.kid }).sign(server.provider.signingKey);

/** The next token answer's ID token, re-signed by the provider's key with `change` applied to its claims. */
function resignIdToken(change: (claims: JWTPayload) => JWTPayload) {
  server.provider.rewriteTokenResponse = async (body) => ({
    ...body,
    id_token: await signAsProvider(change(decodeJwt(body.id_token as string))),
  });
}

/** Signs in as `login` at the provider and hands the callback to Evident: the refusal page's status and text. */
async function refusedSignIn(login = 'alice'): Promise<{ status: number; text: string; jar: CookieJar }> {
  const { jar, response } = await signInToEvident(server.url, login);
  return { status: response.status, text: await response.text(), jar };
}

beforeAll(async () => {
  server = await startOidcEvident({
    users: {
      alice: { groups: ['legal'] },
      bob: { groups: ['sales'] },
      carol: { groups: ['sales', 'evident-admins'] },
      reserved: { groups: [], claims: { preferred_username: 'admin-key' } },
      colon: { groups: [], claims: { preferred_username: 'evident:local' } },
      crowded: { groups: Array.from({ length: 257 }, (_, i) => `g${i}`) },
      spaced: { groups: ['has space'] },
      nameless: { groups: [], claims: { preferred_username: undefined } },
      stranger: { groups: ['legal'] },
    },
    env: { EVIDENT_OIDC_ADMIN_GROUP: 'evident-admins' },
    agents: true,
  });
}, 120_000);

afterAll(async () => server?.close());

beforeEach(() => {
  server.provider.rewriteTokenResponse = undefined;
  server.provider.users.alice = { groups: ['legal'] };
});

describe('OpenID Connect sign-in against a real provider', () => {
  it('tells the sign-in screen, without a key, that the provider is on and what to call it', async () => {
    const response = await fetch(`${server.url}/v1/auth/providers`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      api_key: true,
      oidc: { display_name: 'Test IdP', login_url: '/auth/oidc/login', logout_url: '/auth/oidc/logout' },
    });
  });

  it('starts the code flow with PKCE S256, state and nonce, tied to the browser by a cookie', async () => {
    const { jar, authorizationUrl } = await startEvidentSignIn(server.url);
    expect(authorizationUrl.origin).toBe(server.provider.issuer);
    const params = authorizationUrl.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe('evident');
    expect(params.get('redirect_uri')).toBe(server.redirectUri);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('scope')?.split(' ')).toEqual(['openid', 'profile', 'email', 'groups']);
    expect(jar.get('evident_oidc_state')).toBe(params.get('state'));
  });

  it('signs alice in: her groups from the token, a session cookie, and only what her group may read', async () => {
    const { jar, response } = await signInToEvident(server.url, 'alice', '/#/documents?x=1');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/#/documents?x=1');
    expect(jar.get('evident_session')).toBeTruthy();
    expect(jar.get('evident_oidc_state')).toBeUndefined();
    const me = await api(jar, '/v1/me');
    expect(await me.json()).toMatchObject({ user: 'alice', groups: ['legal'], roles: ['member'] });
    expect(await docIdsOf(jar)).toContain(LEGAL_DOC);

    const bob = await signInToEvident(server.url, 'bob');
    expect(bob.response.status).toBe(302);
    expect(await (await api(bob.jar, '/v1/me')).json()).toMatchObject({ user: 'bob', groups: ['sales'] });
    expect(await docIdsOf(bob.jar)).not.toContain(LEGAL_DOC);
  });

  it('keeps return_to on this server: another origin, //host and backslash tricks end on /', async () => {
    for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const { response } = await signInToEvident(server.url, 'bob', returnTo);
      expect(response.headers.get('location'), returnTo).toBe('/');
    }
  });

  it('applies a group removed at the provider at the next sign-in, to every session of the user', async () => {
    const first = await signInToEvident(server.url, 'alice');
    expect(await docIdsOf(first.jar)).toContain(LEGAL_DOC);
    server.provider.users.alice = { groups: ['marketing'] };
    // Until she signs in again, Evident has not heard of the change.
    expect(await docIdsOf(first.jar)).toContain(LEGAL_DOC);
    const second = await signInToEvident(server.url, 'alice');
    expect(second.response.status).toBe(302);
    expect(await (await api(second.jar, '/v1/me')).json()).toMatchObject({ groups: ['marketing'] });
    expect(await docIdsOf(second.jar)).not.toContain(LEGAL_DOC);
    // The first session reads her groups from the store at each request: it lost the document too.
    expect(await docIdsOf(first.jar)).not.toContain(LEGAL_DOC);
  });

  it('makes members of the admin group admins, and takes the role back when the group goes', async () => {
    const carol = await signInToEvident(server.url, 'carol');
    expect(await (await api(carol.jar, '/v1/me')).json()).toMatchObject({ user: 'carol', roles: ['admin'] });
    server.provider.users.carol = { groups: ['sales'] };
    const again = await signInToEvident(server.url, 'carol');
    expect(await (await api(again.jar, '/v1/me')).json()).toMatchObject({ roles: ['member'] });
    expect(await (await api(carol.jar, '/v1/me')).json()).toMatchObject({ roles: ['member'] });
  });

  describe('refuses', () => {
    it('a replayed state: the callback works once', async () => {
      const started = await startEvidentSignIn(server.url);
      const callback = await signInAtProvider(started.authorizationUrl.href, 'alice', server.redirectUri);
      const state = started.jar.get('evident_oidc_state') as string;
      const first = await send(started.jar, callback.href);
      expect(first.status).toBe(302);
      const replay = new CookieJar();
      replay.set('evident_oidc_state', state);
      const again = await send(replay, callback.href);
      expect(again.status).toBe(400);
      expect(await again.text()).toContain('already used, has expired, or was not started here');
      expect(replay.get('evident_session')).toBeUndefined();
    });

    it('an unknown state, and a callback without the browser that started it (login CSRF)', async () => {
      const unknown = new CookieJar();
      unknown.set('evident_oidc_state', 'x'.repeat(43));
      const response = await send(unknown, `${server.redirectUri}?code=abc&state=${'x'.repeat(43)}`);
      expect(response.status).toBe(400);

      const started = await startEvidentSignIn(server.url);
      const callback = await signInAtProvider(started.authorizationUrl.href, 'alice', server.redirectUri);
      const victim = new CookieJar();
      const forced = await send(victim, callback.href);
      expect(forced.status).toBe(400);
      expect(victim.get('evident_session')).toBeUndefined();
      // The state was taken by that attempt: the attacker's own browser cannot use it afterwards either.
      expect((await send(started.jar, callback.href)).status).toBe(400);
    });

    it('a code exchanged without the PKCE verifier (the provider refuses), and a code injected into another sign-in', async () => {
      const started = await startEvidentSignIn(server.url);
      const callback = await signInAtProvider(started.authorizationUrl.href, 'alice', server.redirectUri);
      const withoutVerifier = await fetch(`${server.provider.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code') as string,
          redirect_uri: server.redirectUri,
          client_id: 'evident',
        }),
      });
      expect(withoutVerifier.status).toBe(400);
      expect(((await withoutVerifier.json()) as { error: string }).error).toBe('invalid_grant');

      // alice's code, carried into bob's sign-in: Evident sends bob's verifier, which does not match alice's challenge.
      const stolen = await startEvidentSignIn(server.url);
      const stolenCode = await signInAtProvider(stolen.authorizationUrl.href, 'alice', server.redirectUri);
      const bobs = await startEvidentSignIn(server.url);
      const injected = new URL(server.redirectUri);
      injected.searchParams.set('code', stolenCode.searchParams.get('code') as string);
      injected.searchParams.set('state', bobs.authorizationUrl.searchParams.get('state') as string);
      injected.searchParams.set('iss', server.provider.issuer);
      const response = await send(bobs.jar, injected.href);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('The identity provider refused the sign-in.');
      expect(bobs.jar.get('evident_session')).toBeUndefined();
    });

    it('a tampered ID token (a claim changed after signing), and one signed by another key', async () => {
      server.provider.rewriteTokenResponse = (body) => {
        const [header, payload, signature] = (body.id_token as string).split('.');
        const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8')) as JWTPayload;
        const forged = Buffer.from(JSON.stringify({ ...claims, groups: ['legal', 'finance'] })).toString('base64url');
        return { ...body, id_token: `${header}.${forged}.${signature}` };
      };
      const tampered = await refusedSignIn();
      expect(tampered.status).toBe(400);
      expect(tampered.text).toContain('did not pass validation');
      expect(tampered.jar.get('evident_session')).toBeUndefined();

      const { privateKey } = await generateKeyPair('RS256');
      server.provider.rewriteTokenResponse = async (body) => ({
        ...body,
        id_token: await new SignJWT(decodeJwt(body.id_token as string))
          .setProtectedHeader({ alg: 'RS256', kid: server.provider.kid })
          .sign(privateKey),
      });
      expect((await refusedSignIn()).status).toBe(400);
    });

    it('an ID token for another audience, an expired one, and one with another nonce', async () => {
      const now = Math.floor(Date.now() / 1000);
      for (const change of [
        (claims: JWTPayload) => ({ ...claims, aud: 'another-client' }),
        (claims: JWTPayload) => ({ ...claims, iat: now - 3600, exp: now - 120 }),
        (claims: JWTPayload) => ({ ...claims, nonce: 'not-the-nonce-we-sent' }),
      ]) {
        resignIdToken(change);
        const refused = await refusedSignIn();
        expect(refused.status).toBe(400);
        expect(refused.text).toContain('did not pass validation');
        expect(refused.jar.get('evident_session')).toBeUndefined();
      }
      // The same re-signing with the claims unchanged passes: the refusals above are the claims', not the signing's.
      resignIdToken((claims) => claims);
      expect((await signInToEvident(server.url, 'bob')).response.status).toBe(302);
    });

    it('a user name that is reserved or invalid, a missing name, and groups that cannot be stored — with a clear page and no token echoed', async () => {
      for (const login of ['reserved', 'colon']) {
        const refused = await refusedSignIn(login);
        expect(refused.status).toBe(400);
        expect(refused.text).toContain('cannot be an Evident user name');
        expect(refused.text).not.toContain('eyJ');
      }
      expect((await refusedSignIn('nameless')).text).toContain('did not say who you are');
      for (const login of ['crowded', 'spaced'])
        expect((await refusedSignIn(login)).text).toContain('cannot be Evident groups');
      expect(await server.evident.store.getUser('admin-key')).toBeUndefined();
      expect(await server.evident.store.getUser('crowded')).toBeUndefined();
    });
  });

  it('refuses a deactivated user at sign-in and on bearer tokens, and takes them back once reactivated', async () => {
    const signedIn = await signInToEvident(server.url, 'bob');
    const { access_token } = await providerAccessToken({
      issuer: server.provider.issuer,
      clientId: 'evident',
      redirectUri: server.redirectUri,
      login: 'bob',
    });
    expect((await bearer(access_token, '/v1/me')).status).toBe(200);
    await server.evident.store.setUserActive('bob', false);
    try {
      const refused = await refusedSignIn('bob');
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('deactivated');
      expect(refused.jar.get('evident_session')).toBeUndefined();
      expect((await bearer(access_token, '/v1/me')).status).toBe(401);
      expect((await api(signedIn.jar, '/v1/me')).status).toBe(401);
    } finally {
      await server.evident.store.setUserActive('bob', true);
    }
    expect((await signInToEvident(server.url, 'bob')).response.status).toBe(302);
    expect((await bearer(access_token, '/v1/me')).status).toBe(200);
  });

  it('signs out: the session is revoked and the browser is sent to the provider with id_token_hint', async () => {
    const { jar } = await signInToEvident(server.url, 'bob');
    const cookie = jar.get('evident_session') as string;
    const response = await send(jar, `${server.url}/auth/oidc/logout`, { method: 'POST' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${server.provider.issuer}/session/end`);
    expect(location.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/`);
    expect(decodeJwt(location.searchParams.get('id_token_hint') as string)).toMatchObject({ sub: 'bob' });
    expect(jar.get('evident_session')).toBeUndefined();
    const stale = new CookieJar();
    stale.set('evident_session', cookie);
    expect((await api(stale, '/v1/me')).status).toBe(401);
    // The provider takes the request (its logout confirmation page).
    expect((await send(new CookieJar(), location.href)).status).toBe(200);
  });
});

describe("the provider's access tokens as bearer tokens", () => {
  const tokenFor = (login: string) =>
    providerAccessToken({
      issuer: server.provider.issuer,
      clientId: 'evident',
      redirectUri: server.redirectUri,
      login,
    });

  it('call /v1/search and MCP as the user, with the groups stored for them', async () => {
    await signInToEvident(server.url, 'alice');
    const { access_token } = await tokenFor('alice');
    expect(decodeJwt(access_token)).toMatchObject({ aud: OIDC_TEST_AUDIENCE, preferred_username: 'alice' });
    const me = await bearer(access_token, '/v1/me');
    expect(await me.json()).toMatchObject({ user: 'alice', groups: ['legal'] });
    const found = (await (await search(access_token)).json()) as { results: { doc_id: string }[] };
    expect(found.results.map((r) => r.doc_id)).toContain(LEGAL_DOC);

    await signInToEvident(server.url, 'bob');
    const bobs = await tokenFor('bob');
    const bobFound = (await (await search(bobs.access_token)).json()) as { results: { doc_id: string }[] };
    expect(bobFound.results.map((r) => r.doc_id)).not.toContain(LEGAL_DOC);

    const mcp = await bearer(access_token, '/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: LEGAL_QUERY } },
      }),
    });
    expect(mcp.status).toBe(200);
    expect(JSON.stringify(await mcp.json())).toContain(LEGAL_DOC);
  });

  it('names the provider as the authorization server in the MCP protected-resource metadata', async () => {
    const response = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    expect(await response.json()).toMatchObject({
      resource: `${server.url}/mcp`,
      authorization_servers: [server.provider.issuer],
    });
  });

  it('refuse a user who never signed in: a token does not create one', async () => {
    const { access_token } = await tokenFor('stranger');
    expect((await bearer(access_token, '/v1/me')).status).toBe(401);
    expect(await server.evident.store.getUser('stranger')).toBeUndefined();
  });

  it('refuse another audience or issuer, an expired token, an unsigned one, one signed by another key, HS256, an oversized one and an ID token', async () => {
    await signInToEvident(server.url, 'alice');
    const { access_token } = await tokenFor('alice');
    const claims = decodeJwt(access_token);
    const header = decodeProtectedHeader(access_token);
    expect(header.alg).toBe('RS256');
    const now = Math.floor(Date.now() / 1000);
    // The provider's key with the claims unchanged is accepted: each refusal below is the change's.
    expect((await bearer(await signAsProvider(claims), '/v1/me')).status).toBe(200);

    const otherKey = (await generateKeyPair('RS256')).privateKey;
    // The algorithm-confusion attack: HS256 with the provider's public key (as published) as the shared secret.
    const published = (await (await fetch(`${server.provider.issuer}/jwks`)).json()) as { keys: unknown[] };
    const hmacKey = new TextEncoder().encode(JSON.stringify(published.keys[0]));
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const bad = {
      wrongAudience: await signAsProvider({ ...claims, aud: 'https://another.example/api' }),
      expired: await signAsProvider({ ...claims, iat: now - 3600, exp: now - 120 }),
      wrongIssuer: await signAsProvider({ ...claims, iss: 'https://issuer.example' }),
      unsigned: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      foreignKey: await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: server.provider.kid })
        .sign(otherKey),
      hs256: await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: server.provider.kid }).sign(hmacKey),
      oversized: await signAsProvider({ ...claims, padding: 'x'.repeat(10_000) }),
      idTokenShaped: await signAsProvider({ ...claims, nonce: 'n', at_hash: 'h' }),
    };
    for (const [name, token] of Object.entries(bad)) {
      const response = await bearer(token, '/v1/me');
      expect(response.status, name).toBe(401);
      const mcp = await bearer(token, '/mcp', {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(mcp.status, name).toBe(401);
    }
  });
});
