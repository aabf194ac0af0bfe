import { createHash, timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { ADMIN_KEY_PRINCIPAL, isAdmin } from '../domain/index.ts';
import { ForbiddenError, UnauthorizedError } from '../errors/index.ts';
import type { PrincipalStore } from '../store/ports/principal-store.ts';
import type { ServerEnv } from './server-env.ts';

/** The key of a request: `Authorization: Bearer <key>`, else `x-api-key`. */
export function requestKey(headers: { header(name: string): string | undefined }): string | undefined {
  const authorization = headers.header('authorization');
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer ?? (headers.header('x-api-key')?.trim() || undefined);
}

// Comparing digests keeps the comparison constant-time whatever the lengths.
const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * Resolves the request's key to a principal (the admin key, whose reserved id no stored user can take, or a user's key
 * from the store), or fails with 401.
 */
export function authenticate(deps: { store: PrincipalStore; adminKey?: string | undefined }) {
  return createMiddleware<ServerEnv>(async (c, next) => {
    const key = requestKey(c.req);
    if (!key) throw new UnauthorizedError();
    const principal =
      deps.adminKey && sameSecret(key, deps.adminKey) ? ADMIN_KEY_PRINCIPAL : await deps.store.principalForApiKey(key);
    if (!principal) throw new UnauthorizedError();
    c.set('principal', principal);
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
