import { z } from 'zod';
import { MAX_SESSION_PAGE } from '../../../store/session-rules.ts';
import { DEFAULT_SESSION_PAGE, signInBody } from '../../routes/session-routes.ts';
import { currentSessionJson, sessionJson } from '../../schemas/session-json.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'query' as const,
  required: false,
  description,
  schema,
});
const noSession = { description: 'The request was made with a key, not the session cookie.', json: ERROR_SCHEMA_REF };

export const sessionPaths = pathGroup(
  {
    name: 'Sessions',
    description:
      "Browser sessions: the `evident_session` cookie the web UI signs in with. A state-changing request made with the cookie must send the session's CSRF token in `x-csrf-token` (403 `csrf_rejected` otherwise); requests with a key need none.",
  },
  {
    '/v1/sessions': {
      post: operation({
        id: 'signIn',
        summary: 'Sign in with an API key (key-paste sign-in)',
        description:
          "Exchanges a user's API key (`api_key` in the body, or the usual `Authorization: Bearer` / `x-api-key` header and no body) for a session cookie; the browser never keeps the key. The admin key opens no session. Refused (403) when sent from another site.",
        access: 'key',
        json: signInBody,
        responses: {
          201: {
            description:
              'Signed in: `Set-Cookie: evident_session=…; Path=/; HttpOnly; SameSite=Lax` (`Secure` over HTTPS), and the session with its CSRF token.',
            json: currentSessionJson,
          },
          403: { description: 'Sent from another site (`csrf_rejected`).', json: ERROR_SCHEMA_REF },
        },
      }),
      get: operation({
        id: 'listSessions',
        summary: 'List live sessions',
        description: "Newest first, a page at a time; every user's, or one user's with `user`. Never a token.",
        access: 'admin',
        params: [
          query('user', "Only this user's sessions."),
          query('limit', `Sessions per page (default ${DEFAULT_SESSION_PAGE}, at most ${MAX_SESSION_PAGE}).`, {
            type: 'integer',
          }),
          query('cursor', 'The `next_cursor` of the previous page.'),
        ],
        responses: {
          200: {
            description: 'A page of sessions.',
            json: z.object({ sessions: z.array(sessionJson), next_cursor: z.string().nullable() }).strict(),
          },
        },
      }),
    },
    '/v1/sessions/current': {
      get: operation({
        id: 'currentSession',
        summary: 'The session the request was made with',
        description: 'With its CSRF token, for the signed-in UI.',
        access: 'key',
        responses: { 200: { description: 'The session.', json: currentSessionJson }, 404: noSession },
      }),
      delete: operation({
        id: 'signOut',
        summary: 'Sign out',
        description: 'Ends the session at once and clears the cookie. Needs `x-csrf-token`.',
        access: 'key',
        responses: {
          200: { description: 'Signed out.', json: z.object({ revoked: z.string() }).strict() },
          403: { description: 'No or a wrong CSRF token, or another site (`csrf_rejected`).', json: ERROR_SCHEMA_REF },
          404: noSession,
        },
      }),
    },
    '/v1/sessions/mine': {
      get: operation({
        id: 'mySessions',
        summary: "The caller's own live sessions",
        description: `Newest first, at most ${MAX_SESSION_PAGE}; \`current\` marks the one the request was made with.`,
        access: 'key',
        responses: {
          200: { description: 'The sessions.', json: z.object({ sessions: z.array(sessionJson) }).strict() },
        },
      }),
    },
    '/v1/sessions/{id}': {
      delete: operation({
        id: 'revokeSession',
        summary: 'Revoke a session',
        description: 'The session stops working at once (its next request gets 401). Recorded in the audit log.',
        access: 'admin',
        params: [pathParam('id', 'The session id (not its token).')],
        responses: {
          200: {
            description: 'Revoked.',
            json: z.object({ revoked: z.string(), user: z.string() }).strict(),
          },
          404: { description: 'No such live session.', json: ERROR_SCHEMA_REF },
        },
      }),
    },
  },
);
