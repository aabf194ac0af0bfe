import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** A person at the test provider: their login (also `sub` and `preferred_username`) and their groups, changeable. */
export interface HarnessUser {
  groups: string[];
  /** Overrides of the claims the provider sends (e.g. an invalid `preferred_username`). */
  claims?: Record<string, unknown>;
}

export interface OidcHarnessOptions {
  /** The client Evident signs in with (public, PKCE): its redirect and post-logout URIs. */
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** People and their groups, by login. */
  users: Record<string, HarnessUser>;
  /** The audience of JWT access tokens (RFC 8707 resource), given to every token of the authorization code flow. */
  audience: string;
  clientId?: string;
  /** A confidential client (`client_secret_basic`) with this secret; unset: a public client (`none`, PKCE alone). */
  clientSecret?: string;
}

/** A JSON rewrite of the provider's token endpoint answer, to hand Evident a forged or broken ID token. */
export type TokenResponseRewrite = (
  body: Record<string, unknown>,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** A real OpenID provider (`oidc-provider`) on 127.0.0.1, for tests: discovery, JWKS, code flow with PKCE, logout. */
export interface OidcProviderHarness {
  issuer: string;
  clientId: string;
  /** The provider's signing key (RS256) and its id, as in its JWKS: tests forge tokens with it. */
  signingKey: CryptoKey;
  kid: string;
  users: Record<string, HarnessUser>;
  /** The next token endpoint answers pass through this rewrite until it is cleared (undefined). */
  rewriteTokenResponse: TokenResponseRewrite | undefined;
  /** Requests the provider received, path only (`/token`, `/session/end`…), in order. */
  requests: string[];
  close(): Promise<void>;
}

const listen = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

/**
 * Starts `oidc-provider` on a free port of 127.0.0.1: one public client (`token_endpoint_auth_method: none`, PKCE
 * required), the dev login form (any password), consent granted without a prompt, groups in the ID token under the
 * `groups` scope, JWT access tokens (RS256) for `audience` carrying `preferred_username`, and RP-initiated logout.
 */
export async function startOidcProvider(options: OidcHarnessOptions): Promise<OidcProviderHarness> {
  const server = createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = options.clientId ?? 'evident';
  const kid = `test-${randomBytes(4).toString('hex')}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, use: 'sig', alg: 'RS256' };
  const users = options.users;

  const harness: OidcProviderHarness = {
    issuer,
    clientId,
    signingKey: privateKey,
    kid,
    users,
    rewriteTokenResponse: undefined,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const claimsOf = (login: string): Record<string, unknown> => {
    const user = users[login];
    return {
      sub: login,
      preferred_username: login,
      email: `${login}@example.test`,
      groups: [...(user?.groups ?? [])],
      ...user?.claims,
    };
  };

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        ...(options.clientSecret
          ? { client_secret: options.clientSecret, token_endpoint_auth_method: 'client_secret_basic' as const }
          : { token_endpoint_auth_method: 'none' as const }),
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [privateJwk as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    // Claims of the requested scopes go in the ID token (as Keycloak, Entra and Okta send them), not only to userinfo.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      profile: ['preferred_username'],
      email: ['email'],
      groups: ['groups'],
    },
    scopes: ['openid', 'profile', 'email', 'groups'],
    async findAccount(_ctx, id) {
      if (!Object.hasOwn(users, id)) return undefined;
      return { accountId: id, claims: async () => claimsOf(id) as { sub: string } };
    },
    // The test users never see a consent screen: the requested scopes and the API's scope are granted at login.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email groups');
      grant.addResourceScope(options.audience, 'evident');
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => options.audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== options.audience) throw new Error(`unknown resource ${resource}`);
          return {
            scope: 'evident',
            audience: options.audience,
            accessTokenTTL: 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    async extraTokenClaims(_ctx, token) {
      const accountId = (token as { accountId?: string }).accountId;
      if (token.kind !== 'AccessToken' || !accountId) return undefined;
      const claims = claimsOf(accountId);
      return { preferred_username: claims.preferred_username };
    },
    ttl: { AccessToken: 600, IdToken: 600, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600 },
  };

  const provider = new Provider(issuer, configuration);
  // Silences the provider's expected-refusal noise in test output (a refused code exchange is a test's point).
  provider.on('server_error', () => undefined);
  provider.use(async (ctx, next) => {
    harness.requests.push(ctx.path);
    await next();
    const rewrite = harness.rewriteTokenResponse;
    if (ctx.path === '/token' && ctx.status === 200 && rewrite && ctx.body && typeof ctx.body === 'object')
      ctx.body = await rewrite(ctx.body as Record<string, unknown>);
  });
  server.on('request', provider.callback());
  return harness;
}
