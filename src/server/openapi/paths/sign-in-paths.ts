import { authProvidersJson } from '../../schemas/auth-providers-json.ts';
import { operation, pathGroup } from '../operation.ts';

const html = { 'text/html': { schema: { type: 'string' as const } } };

const notConfigured = {
  description: 'The server has no OpenID provider configured (`oidc_sign_in_failed`, a page saying so).',
  content: html,
};

const refusedPage = {
  description:
    'The sign-in was refused (`oidc_sign_in_failed`: an unknown, expired or replayed state, the provider refused, its ' +
    "answer did not validate, or the user name or groups it sent cannot be Evident's): a page that says what to do. " +
    '502 when the provider could not be reached; 403 for a deactivated user.',
  content: html,
};

const logout = (id: string) =>
  operation({
    id,
    summary: 'Sign out (here and at the provider)',
    description:
      "Revokes the browser's session and clears its cookie, then redirects to the provider's `end_session_endpoint` " +
      '(with `id_token_hint` and `post_logout_redirect_uri`) when it has one, else to the UI.',
    access: 'browser',
    responses: { 303: { description: "To the provider's end-session endpoint, or to `/`." } },
  });

export const signInPaths = pathGroup(
  {
    name: 'Sign-in',
    description: "Signing in to the web UI with the organisation's OpenID Connect provider (docs/sign-in.md).",
  },
  {
    '/v1/auth/providers': {
      get: operation({
        id: 'authProviders',
        summary: 'How one may sign in',
        description:
          'Whether sign-in with an OpenID provider is configured, and the name for its button. Needs no key.',
        access: 'public',
        responses: { 200: { description: 'The sign-in methods.', json: authProvidersJson } },
      }),
    },
    '/auth/oidc/login': {
      get: operation({
        id: 'oidcLogin',
        summary: 'Start signing in with the OpenID provider',
        description:
          "Starts the authorization code flow (PKCE S256, `state`, `nonce`) and redirects to the provider's " +
          'authorization endpoint. `return_to`: a path of this server to end on (anything else becomes `/`).',
        access: 'browser',
        params: [
          {
            name: 'return_to',
            in: 'query',
            required: false,
            description: 'A path of this server, e.g. `/#/search`; at most 2048 characters.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          302: { description: "To the provider's authorization endpoint." },
          404: notConfigured,
          502: refusedPage,
        },
      }),
    },
    '/auth/oidc/callback': {
      get: operation({
        id: 'oidcCallback',
        summary: "The provider's return after sign-in",
        description:
          'Takes the one-time state (a replayed or unknown one is refused), exchanges the code with the PKCE verifier, ' +
          "validates the ID token (signature by the provider's JWKS, issuer, audience, expiry with the clock skew, " +
          'nonce), stores the user with the groups of the groups claim (replacing the previous ones) and opens a session.',
        access: 'browser',
        responses: {
          302: { description: 'Signed in: to `return_to`, with the session cookie set.' },
          400: refusedPage,
          404: notConfigured,
        },
      }),
    },
    '/auth/oidc/logout': { get: logout('oidcLogoutGet'), post: logout('oidcLogout') },
  },
);
