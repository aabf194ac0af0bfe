import type { Hono } from 'hono';
import type { OidcConfig } from '../../config/oidc-schema.ts';
import type { Logger } from '../../logging/logger.ts';
import type { PrincipalStore } from '../../store/ports/principal-store.ts';
import type { ServerEnv } from '../server-env.ts';
import { OidcDiscovery } from './oidc-discovery.ts';
import { oidcRoutes } from './oidc-routes.ts';
import type { OidcSessionHooks } from './oidc-session-hooks.ts';
import { providerTokenResolver, type ProviderTokenResolver } from './provider-token-resolver.ts';

/** What the app mounts when OpenID Connect is configured. */
export interface OidcServer {
  /** `/auth/oidc/login`, `/callback`, `/logout`. */
  routes: Hono<ServerEnv>;
  /** The provider's JWT access tokens as bearer tokens; undefined without `oidc.audience`. */
  tokenResolver: ProviderTokenResolver | undefined;
  /** The issuer to name in the MCP protected-resource metadata; undefined without `oidc.audience`. */
  authorizationServer: string | undefined;
}

/** The OIDC sign-in routes and the provider-token resolver over one discovery cache. */
export function oidcServer(deps: {
  oidc: OidcConfig;
  store: PrincipalStore;
  sessions: OidcSessionHooks;
  logger: Logger;
}): OidcServer {
  const { oidc, store } = deps;
  const discovery = new OidcDiscovery(oidc);
  const audience = oidc.audience;
  return {
    routes: oidcRoutes({ ...deps, discovery }),
    tokenResolver: audience ? providerTokenResolver({ oidc: { ...oidc, audience }, discovery, store }) : undefined,
    authorizationServer: audience ? oidc.issuer : undefined,
  };
}
