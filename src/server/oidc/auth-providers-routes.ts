import { Hono } from 'hono';
import type { OidcConfig } from '../../config/oidc-schema.ts';
import type { AuthProvidersJson } from '../schemas/auth-providers-json.ts';
import type { ServerEnv } from '../server-env.ts';
import { OIDC_LOGIN_PATH, OIDC_LOGOUT_PATH } from './oidc-routes.ts';

export const AUTH_PROVIDERS_PATH = '/auth/providers';

/** `GET /v1/auth/providers`, served without a key: how the sign-in screen may sign someone in. */
export function authProvidersRoutes(oidc: OidcConfig | undefined): Hono<ServerEnv> {
  const body: AuthProvidersJson = {
    api_key: true,
    oidc: oidc ? { display_name: oidc.displayName, login_url: OIDC_LOGIN_PATH, logout_url: OIDC_LOGOUT_PATH } : null,
  };
  return new Hono<ServerEnv>().get(AUTH_PROVIDERS_PATH, (c) => c.json(body));
}
