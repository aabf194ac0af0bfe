import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { SessionsConfig } from '../config/sessions-schema.ts';
import { CsrfError, UnauthorizedError } from '../errors/index.ts';
import type { PrincipalStore } from '../store/ports/principal-store.ts';
import type { SessionRecord, SessionStore, SignInMethod, SignInState } from '../store/ports/session-store.ts';
import type { ServerEnv } from './server-env.ts';

/** The browser session's cookie: HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS. */
export const SESSION_COOKIE = 'evident_session';
/** The header a cookie-authenticated state-changing request carries the session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';
/** Methods that change state: a request with one of them made with the cookie must prove it came from the UI. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type SessionStores = PrincipalStore & SessionStore;
export type SessionSettings = Pick<SessionsConfig, 'ttlHours' | 'idleMinutes' | 'trustForwardedHeaders'>;

const firstValue = (header: string | undefined) => header?.split(',')[0]?.trim().toLowerCase() || undefined;

/** Whether the browser reached this server over HTTPS: the request's own scheme, or a trusted proxy's word. */
export function isSecureRequest(c: Context, settings: Pick<SessionSettings, 'trustForwardedHeaders'>): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return settings.trustForwardedHeaders && firstValue(c.req.header('x-forwarded-proto')) === 'https';
}

/** This server's origin as the browser sees it (`https://evident.example.com`). */
export function requestOrigin(c: Context, settings: Pick<SessionSettings, 'trustForwardedHeaders'>): string {
  const scheme = isSecureRequest(c, settings) ? 'https' : 'http';
  const forwardedHost = settings.trustForwardedHeaders ? firstValue(c.req.header('x-forwarded-host')) : undefined;
  const host = forwardedHost ?? c.req.header('host')?.toLowerCase() ?? new URL(c.req.url).host;
  return `${scheme}://${host}`;
}

/**
 * Refuses a request another site made the browser send: `Sec-Fetch-Site` other than `same-origin`, or an `Origin`
 * other than this server's. A client that sends neither (an old browser, a script) is judged by the CSRF token alone.
 */
export function assertSameOrigin(c: Context, settings: Pick<SessionSettings, 'trustForwardedHeaders'>): void {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') throw new CsrfError(`it came from another site (${site})`);
  const origin = c.req.header('origin');
  if (origin !== undefined && origin.toLowerCase() !== requestOrigin(c, settings))
    throw new CsrfError('its Origin is not this server');
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The CSRF rules of a request authenticated by the session cookie; a safe method (GET, HEAD) needs nothing. */
export function assertCsrf(c: Context, session: SessionRecord, settings: SessionSettings): void {
  if (!UNSAFE_METHODS.has(c.req.method.toUpperCase())) return;
  assertSameOrigin(c, settings);
  const sent = c.req.header(CSRF_HEADER);
  if (!sent) throw new CsrfError(`it has no ${CSRF_HEADER} header`);
  // Comparing digests keeps the comparison constant-time whatever the lengths.
  if (!timingSafeEqual(digest(sent), digest(session.csrfToken))) throw new CsrfError(`its ${CSRF_HEADER} is wrong`);
}

/** The session token the request's cookie carries, if any. */
export const sessionTokenOf = (c: Context): string | undefined => getCookie(c, SESSION_COOKIE) || undefined;

const isInactive = (user: object): boolean => (user as { active?: unknown }).active === false;

let lastSweep = 0;
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Opens a session for a stored, active user and sets its cookie on the response (the key-paste sign-in and the
 * OpenID Connect callback both end here). `expiresAt` can only shorten the configured lifetime.
 */
export async function startSession(
  c: Context<ServerEnv>,
  store: SessionStores,
  settings: SessionSettings,
  input: { user: string; via: SignInMethod; idToken?: string | undefined; expiresAt?: Date | undefined },
): Promise<SessionRecord> {
  const user = await store.getUser(input.user);
  if (!user || isInactive(user)) throw new UnauthorizedError();
  const now = Date.now();
  const configured = Math.round(settings.ttlHours * 3_600_000);
  const ttlMs = input.expiresAt ? Math.min(configured, input.expiresAt.getTime() - now) : configured;
  if (ttlMs <= 0) throw new UnauthorizedError();
  if (now - lastSweep > SWEEP_EVERY_MS) {
    lastSweep = now;
    await store.sweepExpiredSessions();
  }
  const { token, session } = await store.createSession({
    user: user.name,
    via: input.via,
    ttlMs,
    idleMs: Math.round(settings.idleMinutes * 60_000),
    ...(input.idToken ? { idToken: input.idToken } : {}),
  });
  setCookie(c, SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecureRequest(c, settings),
    maxAge: Math.floor(ttlMs / 1000),
  });
  c.header('Cache-Control', 'no-store');
  return session;
}

/** Clears the session cookie on the response. */
export function clearSessionCookie(c: Context, settings: SessionSettings): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isSecureRequest(c, settings) });
}

/** Revokes the request's session, if its cookie names a live one, and clears the cookie; the ended session. */
export async function endSession(
  c: Context<ServerEnv>,
  store: SessionStores,
  settings: SessionSettings,
): Promise<SessionRecord | undefined> {
  const token = sessionTokenOf(c);
  const found = token ? await store.findSession(token) : undefined;
  const ended = found ? await store.revokeSession(found.id) : undefined;
  clearSessionCookie(c, settings);
  c.header('Cache-Control', 'no-store');
  return ended;
}

/**
 * What the OpenID Connect routes use of the sessions: the store's one-time sign-in states, and opening (as `oidc`,
 * with the ID token kept for RP-initiated logout) and ending the browser's session.
 */
export function browserSessions(store: SessionStores, settings: SessionSettings) {
  return {
    saveSignInState: (state: SignInState) => store.saveSignInState(state),
    takeSignInState: (state: string) => store.takeSignInState(state),
    async startSession(c: Context<ServerEnv>, input: { user: string; idToken?: string; expiresAt?: Date }) {
      await startSession(c, store, settings, { ...input, via: 'oidc' });
    },
    async endSession(c: Context<ServerEnv>): Promise<{ idToken?: string | undefined } | undefined> {
      const ended = await endSession(c, store, settings);
      return ended ? { idToken: ended.idToken } : undefined;
    },
  };
}
