import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as client from 'openid-client';
import { oidcPostLogoutUri, oidcRedirectUri, type OidcConfig } from '../../config/oidc-schema.ts';
import { OidcSignInError, isEvidentError } from '../../errors/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { PrincipalStore } from '../../store/ports/principal-store.ts';
import type { ServerEnv } from '../server-env.ts';
import { claimedUser } from './oidc-claims.ts';
import type { OidcDiscovery } from './oidc-discovery.ts';
import type { OidcSessionHooks } from './oidc-session-hooks.ts';
import { safeReturnTo } from './return-to.ts';
import { signInErrorPage } from './sign-in-page.ts';

export const OIDC_LOGIN_PATH = '/auth/oidc/login';
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';
export const OIDC_LOGOUT_PATH = '/auth/oidc/logout';

/** How long a started sign-in may take at the provider before its state expires. */
const SIGN_IN_STATE_TTL_MS = 10 * 60_000;
/** The cookie that ties a started sign-in to the browser that started it (against login CSRF). */
const STATE_COOKIE = 'evident_oidc_state';
/** A `state` longer than this is no state Evident made (randomState is 43 characters). */
const MAX_STATE_CHARS = 128;
/** The callback's query (code, state, iss, session_state…) is refused above this. */
const MAX_CALLBACK_QUERY_CHARS = 8192;

export interface OidcRouteDeps {
  oidc: OidcConfig;
  discovery: OidcDiscovery;
  store: PrincipalStore;
  sessions: OidcSessionHooks;
  logger: Logger;
}

const isInactive = (user: object | undefined): boolean => (user as { active?: unknown } | undefined)?.active === false;

const isNetworkFailure = (error: unknown): boolean =>
  error instanceof TypeError ||
  (error instanceof Error && ['AbortError', 'TimeoutError'].includes(error.name)) ||
  (error instanceof Error && error.cause !== undefined && isNetworkFailure(error.cause));

/** openid-client's failure as Evident's typed refusal: the provider said no, could not be reached, or its answer did not validate. */
function signInFailure(error: unknown): OidcSignInError {
  if (OidcSignInError.isInstance(error)) return error;
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError)
    return new OidcSignInError('provider_refused', { cause: error });
  if (isNetworkFailure(error)) return new OidcSignInError('provider_unreachable', { cause: error });
  return new OidcSignInError('token_invalid', { cause: error });
}

const isSystemError = (error: unknown): boolean =>
  isEvidentError(error) && !OidcSignInError.isInstance(error) && error.category === 'system';

const STATUS_BY_FAILURE = { provider_unreachable: 502, user_inactive: 403 } as const;

/**
 * OpenID Connect sign-in for the browser: `GET /auth/oidc/login` starts the authorization code flow (PKCE S256,
 * `state`, `nonce`, kept once in the store and tied to this browser by a short-lived cookie), `GET /auth/oidc/callback`
 * takes the state once, exchanges the code with the verifier (openid-client validates the ID token: signature by
 * the provider's JWKS, issuer, audience, expiry within the clock skew, nonce), stores the user with the groups the
 * token carries (replacing the ones before) and opens a session; `/auth/oidc/logout` ends it, at the provider too
 * when it has an end-session endpoint.
 */
export function oidcRoutes(deps: OidcRouteDeps): Hono<ServerEnv> {
  const { oidc, discovery, sessions, store, logger } = deps;
  const redirectUri = oidcRedirectUri(oidc);
  const secureCookie = new URL(redirectUri).protocol === 'https:';
  const app = new Hono<ServerEnv>();

  const refuse = (c: Context<ServerEnv>, error: unknown) => {
    const failure = signInFailure(error);
    logger.warn('OIDC sign-in refused', {
      failure: failure.failure,
      cause:
        failure.cause instanceof Error ? `${failure.cause.name}: ${failure.cause.message}`.slice(0, 300) : undefined,
    });
    c.header('Cache-Control', 'no-store');
    const status =
      (STATUS_BY_FAILURE as Record<string, 502 | 403>)[failure.failure] ??
      (failure.category === 'upstream' ? 502 : 400);
    return c.html(signInErrorPage(failure.message, failure.hint), status);
  };

  app.get(OIDC_LOGIN_PATH, async (c) => {
    try {
      const config = await discovery.configuration();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      const returnTo = safeReturnTo(c.req.query('return_to'));
      await sessions.saveSignInState({
        state,
        nonce,
        codeVerifier,
        returnTo,
        expiresAt: new Date(Date.now() + SIGN_IN_STATE_TTL_MS).toISOString(),
      });
      setCookie(c, STATE_COOKIE, state, {
        path: '/auth/oidc/',
        httpOnly: true,
        sameSite: 'Lax',
        secure: secureCookie,
        maxAge: SIGN_IN_STATE_TTL_MS / 1000,
      });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: oidc.scopes.join(' '),
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      c.header('Cache-Control', 'no-store');
      return c.redirect(url.href, 302);
    } catch (error) {
      // The store failing is the server's error (500), not a refusal of this sign-in.
      if (isSystemError(error)) throw error;
      return refuse(c, error);
    }
  });

  app.get(OIDC_CALLBACK_PATH, async (c) => {
    try {
      const current = new URL(c.req.url);
      if (current.search.length > MAX_CALLBACK_QUERY_CHARS) throw new OidcSignInError('provider_refused');
      const state = c.req.query('state');
      const browserState = getCookie(c, STATE_COOKIE);
      deleteCookie(c, STATE_COOKIE, { path: '/auth/oidc/', secure: secureCookie });
      if (!state || state.length > MAX_STATE_CHARS) throw new OidcSignInError('state_unknown');
      // Taken (deleted) before anything else is checked: whatever follows, this state cannot be used again.
      const started = await sessions.takeSignInState(state);
      if (!started || browserState !== state) throw new OidcSignInError('state_unknown');

      const config = await discovery.configuration();
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = current.search;
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: started.codeVerifier,
          expectedState: started.state,
          expectedNonce: started.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        // The provider could not be reached (it may have moved or restarted): read its discovery document again on
        // the next sign-in. Keys it rotated are fetched again by the JWKS cache itself, on an unknown key id.
        if (isNetworkFailure(error)) discovery.refresh();
        throw error;
      }
      const claims = tokens.claims();
      if (!claims) throw new OidcSignInError('token_invalid');
      const user = claimedUser(claims as Record<string, unknown>, oidc);
      const stored = await store.getUser(user.name);
      if (isInactive(stored)) throw new OidcSignInError('user_inactive');
      // The provider's groups replace the user's at each sign-in (unless groupsFromToken is off: then the stored
      // ones stay); the roles change only with oidc.adminGroup.
      await store.upsertUser({ ...user, groups: user.groups ?? stored?.groups ?? [] });
      await sessions.startSession(c, { user: user.name, ...(tokens.id_token ? { idToken: tokens.id_token } : {}) });
      c.header('Cache-Control', 'no-store');
      return c.redirect(started.returnTo, 302);
    } catch (error) {
      if (isSystemError(error)) throw error;
      return refuse(c, error);
    }
  });

  const logout = async (c: Context<ServerEnv>) => {
    const ended = await sessions.endSession(c);
    c.header('Cache-Control', 'no-store');
    let config: client.Configuration | undefined;
    try {
      config = await discovery.configuration();
    } catch {
      // The local session is ended either way; without the provider's metadata there is no end-session endpoint.
    }
    if (config?.serverMetadata().end_session_endpoint) {
      const url = client.buildEndSessionUrl(config, {
        post_logout_redirect_uri: oidcPostLogoutUri(oidc),
        ...(ended?.idToken ? { id_token_hint: ended.idToken } : { client_id: oidc.clientId }),
      });
      return c.redirect(url.href, 303);
    }
    return c.redirect('/', 303);
  };
  app.get(OIDC_LOGOUT_PATH, logout);
  app.post(OIDC_LOGOUT_PATH, logout);
  return app;
}

/**
 * The same routes on a server without an OpenID provider: login and callback answer a page saying sign-in with a
 * provider is not configured (404); logout still ends the browser's session and returns to the UI.
 */
export function oidcOffRoutes(sessions: Pick<OidcSessionHooks, 'endSession'>): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  const off = (c: Context<ServerEnv>) => {
    const error = new OidcSignInError('not_configured');
    c.header('Cache-Control', 'no-store');
    return c.html(signInErrorPage(error.message, error.hint), 404);
  };
  app.get(OIDC_LOGIN_PATH, off);
  app.get(OIDC_CALLBACK_PATH, off);
  const logout = async (c: Context<ServerEnv>) => {
    await sessions.endSession(c);
    c.header('Cache-Control', 'no-store');
    return c.redirect('/', 303);
  };
  app.get(OIDC_LOGOUT_PATH, logout);
  app.post(OIDC_LOGOUT_PATH, logout);
  return app;
}
