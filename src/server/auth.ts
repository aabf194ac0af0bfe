import { createHash, timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { ADMIN_KEY_PRINCIPAL, isAdmin, type Principal } from '../domain/index.ts';
import { ForbiddenError, UnauthorizedError } from '../errors/index.ts';
import { sessionsSchema } from '../config/sessions-schema.ts';
import type { PrincipalStore } from '../store/ports/principal-store.ts';
import type { SessionStore } from '../store/ports/session-store.ts';
import type { ServerEnv } from './server-env.ts';
import { assertCsrf, sessionTokenOf, type SessionSettings } from './session-cookie.ts';

/** The key of a request: `Authorization: Bearer <key>`, else `x-api-key`. */
export function requestKey(headers: { header(name: string): string | undefined }): string | undefined {
  const authorization = headers.header('authorization');
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer ?? (headers.header('x-api-key')?.trim() || undefined);
}

// Comparing digests keeps the comparison constant-time whatever the lengths.
const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** Whether `key` is the server's admin key (compared in constant time). */
export const isAdminKey = (key: string, adminKey: string | undefined): boolean =>
  adminKey !== undefined && adminKey !== '' && sameSecret(key, adminKey);

/** The settings of the session cookie when a caller gives none (the config schema's defaults). */
const DEFAULT_SESSIONS: SessionSettings = sessionsSchema.parse({});

export interface AuthDeps {
  store: PrincipalStore & SessionStore;
  adminKey?: string | undefined;
  /** Resolves a bearer token that is no API key (a provider's access token) to a principal, or undefined. */
  accessTokens?: ((token: string) => Promise<Principal | undefined>) | undefined;
  sessions?: SessionSettings | undefined;
}

/**
 * Resolves the request to a principal, or fails with 401. In order: the admin key (whose reserved id no stored
 * user can take), a user's API key, a provider's access token (when a resolver is given), and — only when the
 * request carries no key at all — the session cookie. A key that is wrong never falls back to the cookie. For the
 * cookie the user is read from the store now (absent or deactivated: 401), so a change of groups or a deactivation
 * applies at once; and a state-changing request made with it must pass the CSRF checks.
 */
export function authenticate(deps: AuthDeps) {
  const settings = deps.sessions ?? DEFAULT_SESSIONS;
  return createMiddleware<ServerEnv>(async (c, next) => {
    const key = requestKey(c.req);
    if (key) {
      let principal = isAdminKey(key, deps.adminKey) ? ADMIN_KEY_PRINCIPAL : await deps.store.principalForApiKey(key);
      if (!principal && deps.accessTokens) principal = await deps.accessTokens(key);
      if (!principal) throw new UnauthorizedError();
      c.set('principal', principal);
      await next();
      return;
    }
    const token = sessionTokenOf(c);
    if (!token) throw new UnauthorizedError();
    const session = await deps.store.findSession(token);
    if (!session) throw new UnauthorizedError();
    const user = await deps.store.getUser(session.user);
    if (!user?.active) throw new UnauthorizedError();
    assertCsrf(c, session, settings);
    c.set('principal', { id: user.name, groups: user.groups, roles: user.roles });
    c.set('session', session);
    await next();
  });
}

/** Refuses (403) a principal without the admin role; runs after `authenticate`. */
export function requireAdmin(action: string) {
  return createMiddleware<ServerEnv>(async (c, next) => {
    if (!isAdmin(c.get('principal'))) throw new ForbiddenError(action);
    await next();
  });
}
