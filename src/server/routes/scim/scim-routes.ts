import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { RouteNotFoundError } from '../../../errors/index.ts';
import type { Evident } from '../../../evident.ts';
import type { ServerEnv } from '../../server-env.ts';
import type { ScimDeps } from './scim-client.ts';
import { scimDiscoveryRoutes } from './scim-discovery-routes.ts';
import { scimErrorResponse, scimJson } from './scim-errors.ts';
import { scimGroupRoutes } from './scim-group-routes.ts';
import { SCIM_ERROR } from './scim-schemas.ts';
import { scimUserRoutes } from './scim-user-routes.ts';

/** The longest Authorization header read: the token has at most 1024 characters. */
const MAX_AUTHORIZATION_CHARS = 2048;

// Comparing digests keeps the comparison constant-time whatever the lengths.
const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether the request carries the SCIM token as `Authorization: Bearer <token>` (compared in constant time). */
export function hasScimToken(authorization: string | undefined, token: string): boolean {
  if (!authorization || authorization.length > MAX_AUTHORIZATION_CHARS) return false;
  const presented = authorization.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/**
 * SCIM 2.0 (RFC 7643/7644) at `/scim/v2` for the identity provider's provisioning client: Users, Groups and the
 * discovery endpoints. Only the `scim.token` opens it (no user, no admin key); without one configured it answers 404.
 * Every answer, errors included, is `application/scim+json`.
 */
export function scimRoutes(evident: Evident): Hono<ServerEnv> {
  const config = evident.config.scim;
  const deps: ScimDeps = { store: evident.store, audit: evident.audit, config };
  const app = new Hono<ServerEnv>();
  app.onError((error, c) => scimErrorResponse(c, error));
  app.use('*', async (c, next) => {
    if (!config.token) throw new RouteNotFoundError(c.req.method, c.req.path);
    if (!hasScimToken(c.req.header('authorization'), config.token)) {
      c.header('WWW-Authenticate', 'Bearer realm="scim"');
      return scimJson(
        c,
        {
          schemas: [SCIM_ERROR],
          status: '401',
          detail:
            'Missing or wrong SCIM token. Send Authorization: Bearer <token>, the token set in scim.token (EVIDENT_SCIM_TOKEN).',
        },
        401,
      );
    }
    await next();
  });
  app.route('/', scimDiscoveryRoutes(config));
  app.route('/', scimUserRoutes(deps));
  app.route('/', scimGroupRoutes(deps));
  // Last: a path under /scim/v2 that no route serves gets a SCIM 404 rather than the API's.
  app.use('*', async (c, _next) => {
    throw new RouteNotFoundError(c.req.method, c.req.path);
  });
  return app;
}
