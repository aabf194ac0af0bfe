import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import type { AgentRuntime } from '../agent/agent-runtime.ts';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { createApp } from '../server/create-app.ts';
import type { ServerEnv } from '../server/server-env.ts';
import { startServer } from '../server/start-server.ts';
import { startOidcProvider, type HarnessUser, type OidcProviderHarness } from './oidc-provider-harness.ts';
import { SAMPLE_CORPUS } from './sample-corpus-store.ts';

export const OIDC_TEST_AUDIENCE = 'https://evident.test/api';

/** Evident with OpenID Connect sign-in against a real `oidc-provider`, both on 127.0.0.1, the sample corpus ingested. */
export interface OidcEvidentServer {
  url: string;
  redirectUri: string;
  evident: Evident;
  provider: OidcProviderHarness;
  close(): Promise<void>;
}

/**
 * Starts Evident's HTTP server first (its port is the provider's redirect URI), then the provider, then the app
 * configured through `EVIDENT_OIDC_*` as an operator would (public client, PKCE, the `groups` scope, an audience
 * for access tokens, `env` on top).
 */
export async function startOidcEvident(options: {
  users: Record<string, HarnessUser>;
  env?: Record<string, string>;
  agents?: boolean;
  /** A confidential client at the provider, and its secret given to Evident (`EVIDENT_OIDC_CLIENT_SECRET`). */
  clientSecret?: string;
}): Promise<OidcEvidentServer> {
  let app: Hono<ServerEnv> | undefined;
  const front = new Hono<ServerEnv>().all('*', (c) => (app ? app.fetch(c.req.raw, c.env) : c.text('starting', 503)));
  const server = await startServer(front, { port: 0 });
  const redirectUri = `${server.url}/auth/oidc/callback`;
  const provider = await startOidcProvider({
    redirectUris: [redirectUri],
    postLogoutRedirectUris: [`${server.url}/`],
    users: options.users,
    audience: OIDC_TEST_AUDIENCE,
    ...(options.clientSecret ? { clientSecret: options.clientSecret } : {}),
  });
  const dir = await mkdtemp(join(tmpdir(), 'evident-oidc-'));
  let evident: Evident | undefined;
  let agents: AgentRuntime | undefined;
  try {
    const env = {
      EVIDENT_OIDC_ISSUER: provider.issuer,
      EVIDENT_OIDC_CLIENT_ID: provider.clientId,
      EVIDENT_OIDC_PUBLIC_URL: server.url,
      EVIDENT_OIDC_SCOPES: 'openid,profile,email,groups',
      EVIDENT_OIDC_AUDIENCE: OIDC_TEST_AUDIENCE,
      EVIDENT_OIDC_DISPLAY_NAME: 'Test IdP',
      ...(options.clientSecret ? { EVIDENT_OIDC_CLIENT_SECRET: options.clientSecret } : {}),
      ...options.env,
    };
    evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env, cwd: dir }));
    const summary = await evident.ingestor.ingest([SAMPLE_CORPUS]);
    if (summary.failed > 0) throw new Error(`the sample corpus did not ingest: ${JSON.stringify(summary.outcomes)}`);
    agents = options.agents ? await openAgentRuntime(evident) : undefined;
    app = createApp({ evident, ...(agents ? { agents } : {}) });
  } catch (error) {
    await evident?.close();
    await provider.close();
    await server.close();
    throw error;
  }
  const opened = evident;
  return {
    url: server.url,
    redirectUri,
    evident: opened,
    provider,
    async close() {
      await agents?.close();
      await server.close();
      await provider.close();
      await opened.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
