import { Hono } from 'hono';
import type { MeJson } from '../schemas/me-json.ts';
import type { ServerEnv } from '../server-env.ts';

/** Who the key (or the session cookie) acts as: lets a client check its key and show the user's groups. */
export function meRoutes(): Hono<ServerEnv> {
  return new Hono<ServerEnv>().get('/me', (c) => {
    const principal = c.get('principal');
    const session = c.get('session');
    const me: MeJson = {
      user: principal.id,
      groups: principal.groups,
      roles: principal.roles,
      ...(session ? { csrf_token: session.csrfToken } : {}),
    };
    if (session) c.header('Cache-Control', 'no-store');
    return c.json(me);
  });
}
