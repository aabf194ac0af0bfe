import { afterAll, beforeAll, expect, it } from 'vitest';
import { withSchema } from '../../store/postgres/drop-store.ts';
import {
  CookieJar,
  providerAccessToken,
  send,
  signInAtProvider,
  startEvidentSignIn,
} from '../../testing/oidc-http-flow.ts';
import { startOidcEvident, type OidcEvidentServer } from '../../testing/oidc-evident-server.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';

const LEGAL_DOC = 'contracts/ct-2024-0193.md';

describeWithPostgres('OpenID Connect sign-in against a real provider, on PostgreSQL', (url) => {
  const schema = freshSchema('evident_oidc');
  let server: OidcEvidentServer;

  beforeAll(async () => {
    server = await startOidcEvident({
      users: { alice: { groups: ['legal'] }, bob: { groups: ['sales'] } },
      env: { EVIDENT_DATABASE_URL: withSchema(url, schema) },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await dropSchemas(url, [schema]);
  });

  it('signs in once per state, with the groups from the token, and takes the provider access token as the user', async () => {
    const started = await startEvidentSignIn(server.url);
    const callback = await signInAtProvider(started.authorizationUrl.href, 'alice', server.redirectUri);
    const state = started.jar.get('evident_oidc_state') as string;
    expect((await send(started.jar, callback.href)).status).toBe(302);
    const me = await send(started.jar, `${server.url}/v1/me`);
    expect(await me.json()).toMatchObject({ user: 'alice', groups: ['legal'] });
    const documents = (await (await send(started.jar, `${server.url}/v1/documents`)).json()) as {
      documents: { doc_id: string }[];
    };
    expect(documents.documents.map((d) => d.doc_id)).toContain(LEGAL_DOC);

    const replay = new CookieJar();
    replay.set('evident_oidc_state', state);
    expect((await send(replay, callback.href)).status).toBe(400);

    const { access_token } = await providerAccessToken({
      issuer: server.provider.issuer,
      clientId: 'evident',
      redirectUri: server.redirectUri,
      login: 'alice',
    });
    const viaToken = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await viaToken.json()).toMatchObject({ user: 'alice', groups: ['legal'] });
  });
});
