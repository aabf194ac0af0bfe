import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, signInToEvident } from '../../testing/oidc-http-flow.ts';
import { startOidcEvident, type OidcEvidentServer } from '../../testing/oidc-evident-server.ts';

const SECRET = 'a-confidential-client-secret-0123456789';
let server: OidcEvidentServer;

beforeAll(async () => {
  server = await startOidcEvident({
    users: { alice: { groups: ['legal'] } },
    clientSecret: SECRET,
    env: { EVIDENT_OIDC_GROUPS_FROM_TOKEN: 'false' },
  });
}, 120_000);

afterAll(async () => server?.close());

describe('a confidential client whose groups do not come from the token', () => {
  it('signs in with the client secret (the provider refuses the code exchange without it)', async () => {
    const { jar, response } = await signInToEvident(server.url, 'alice');
    expect(response.status).toBe(302);
    expect(jar.get('evident_session')).toBeTruthy();
    const anonymous = await fetch(`${server.provider.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: 'evident' }),
    });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).toBe('invalid_client');
  });

  it("keeps the groups an administrator set, whatever the token's groups claim says", async () => {
    const first = await signInToEvident(server.url, 'alice');
    expect(await (await send(first.jar, `${server.url}/v1/me`)).json()).toMatchObject({ user: 'alice', groups: [] });
    await server.evident.store.upsertUser({ name: 'alice', groups: ['finance'] });
    const again = await signInToEvident(server.url, 'alice');
    expect(again.response.status).toBe(302);
    expect(await (await send(again.jar, `${server.url}/v1/me`)).json()).toMatchObject({ groups: ['finance'] });
  });
});
