import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { pageQueryFields, queryText } from '../../domain/page-query.ts';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import type { SessionRecord } from '../../store/ports/session-store.ts';
import { MAX_SESSION_PAGE } from '../../store/session-rules.ts';
import { isAdminKey, requestKey, requireAdmin } from '../auth.ts';
import { readJson } from '../read-json.ts';
import type { CurrentSessionJson, SessionJson } from '../schemas/session-json.ts';
import type { ServerEnv } from '../server-env.ts';
import { assertSameOrigin, endSession, startSession, type SessionSettings } from '../session-cookie.ts';

/** The key-paste sign-in's body: the API key, or none when the key travels in the header. */
export const signInBody = z.object({ api_key: z.string().min(1).max(256).optional() }).strict();

export const DEFAULT_SESSION_PAGE = 50;
const listQuery = z
  .object({ user: queryText.optional(), limit: pageQueryFields(MAX_SESSION_PAGE).limit, cursor: z.string().optional() })
  .strict();

export const toSessionJson = (session: SessionRecord, currentId?: string): SessionJson => ({
  id: session.id,
  user: session.user,
  via: session.via,
  created_at: session.createdAt,
  last_seen_at: session.lastSeenAt,
  idle_expires_at: session.idleExpiresAt,
  expires_at: session.expiresAt,
  current: session.id === currentId,
});

export const toCurrentSessionJson = (session: SessionRecord): CurrentSessionJson => ({
  id: session.id,
  user: session.user,
  via: session.via,
  csrf_token: session.csrfToken,
  created_at: session.createdAt,
  idle_expires_at: session.idleExpiresAt,
  expires_at: session.expiresAt,
});

/** The request's session (cookie-authenticated), or a 404 saying the request was made with a key. */
const currentSession = (c: Context<ServerEnv>) => {
  const session = c.get('session');
  if (!session)
    throw new NotFoundError('session', 'current', 'This request was made with a key, not the session cookie.');
  return session;
};

/**
 * `POST /v1/sessions`: the key-paste sign-in. Exchanges a user's API key (in the body or the usual headers) for a
 * session cookie; the browser then never holds the key. Mounted before the `/v1` key check, since the key may be in
 * the body. The admin key opens no session: it stands for no stored user, so a browser must sign in as one.
 */
export function signInRoutes(
  evident: Evident,
  options: { settings: SessionSettings; adminKey: string | undefined },
): Hono<ServerEnv> {
  const { settings, adminKey } = options;
  const { store } = evident;
  return new Hono<ServerEnv>().post('/sessions', async (c) => {
    // A sign-in another site makes the browser send would sign the user in as the attacker (login CSRF).
    assertSameOrigin(c, settings);
    // No body at all is the header form (`Authorization: Bearer <key>`); a body is read, bounded, as JSON.
    // (Told by the headers: only the one JSON reader touches a request's body.)
    const length = c.req.header('content-length');
    const empty = length === '0' || (length === undefined && c.req.header('transfer-encoding') === undefined);
    const body = empty ? {} : await readJson(c, signInBody);
    const key = body.api_key ?? requestKey(c.req);
    if (!key) throw new UnauthorizedError();
    if (isAdminKey(key, adminKey))
      throw new ValidationError('The admin key opens no browser session: it stands for no stored user.', {
        hint: "Sign in with a user's key: `evident users add <you> --roles admin` then `evident keys create <you>`.",
      });
    const principal = await store.principalForApiKey(key);
    if (!principal) throw new UnauthorizedError();
    const session = await startSession(c, store, settings, { user: principal.id, via: 'key' });
    return c.json(toCurrentSessionJson(session), 201);
  });
}

/** The signed-in browser's session, sign-out, a user's own sessions, and admins' listing and revoking. */
export function sessionRoutes(evident: Evident, settings: SessionSettings): Hono<ServerEnv> {
  const { store } = evident;
  return new Hono<ServerEnv>()
    .get('/sessions/current', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(toCurrentSessionJson(currentSession(c)));
    })
    .delete('/sessions/current', async (c) => {
      const session = currentSession(c);
      await endSession(c, store, settings);
      return c.json({ revoked: session.id });
    })
    .get('/sessions/mine', async (c) => {
      const principal = c.get('principal');
      const page = await store.listSessions({ user: principal.id, limit: MAX_SESSION_PAGE });
      const currentId = c.get('session')?.id;
      return c.json({ sessions: page.sessions.map((s) => toSessionJson(s, currentId)) });
    })
    .get('/sessions', requireAdmin('list sessions'), async (c) => {
      const parsed = listQuery.safeParse(c.req.query());
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path.join('.') || 'query';
        throw new ValidationError(`Invalid sessions query at ${field}.`, {
          hint: `Parameters: user, limit (1-${MAX_SESSION_PAGE}), cursor (the previous page's next_cursor).`,
        });
      }
      const { user, limit, cursor } = parsed.data;
      const page = await store.listSessions({
        limit: limit ?? DEFAULT_SESSION_PAGE,
        ...(user ? { user } : {}),
        ...(cursor ? { cursor } : {}),
      });
      const currentId = c.get('session')?.id;
      return c.json({ sessions: page.sessions.map((s) => toSessionJson(s, currentId)), next_cursor: page.nextCursor });
    })
    .delete('/sessions/:id', requireAdmin('revoke sessions'), async (c) => {
      const id = c.req.param('id');
      const revoked = id.length <= 64 ? await store.revokeSession(id) : undefined;
      if (!revoked) throw new NotFoundError('session', id.slice(0, 64));
      await evident.audit.admin({
        actor: c.get('principal'),
        action: 'session.revoke',
        target: revoked.id,
        surface: 'http',
        outcome: `of ${revoked.user}`,
      });
      return c.json({ revoked: revoked.id, user: revoked.user });
    });
}
