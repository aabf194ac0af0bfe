import { Hono } from 'hono';
import type { Evident } from '../evident.ts';
import { EvidentError } from '../errors/index.ts';
import { silentLogger, type Logger } from '../logging/logger.ts';
import { authenticate } from './auth.ts';
import { errorResponse } from './error-response.ts';
import { docsRoutes } from './routes/docs-routes.ts';
import { documentRoutes } from './routes/document-routes.ts';
import { healthRoutes } from './routes/health-routes.ts';
import { meRoutes } from './routes/me-routes.ts';
import { memoryRoutes } from './routes/memory-routes.ts';
import { searchRoutes } from './routes/search-routes.ts';
import { userRoutes } from './routes/user-routes.ts';
import type { ServerEnv } from './server-env.ts';

export interface AppDeps {
  evident: Evident;
  /** Overrides `evident.config.adminKey` (tests). */
  adminKey?: string;
  logger?: Logger;
}

/** The HTTP API over one Evident. Every `/v1` route needs a key; the principal it maps to is passed to every store call. */
export function createApp(deps: AppDeps): Hono<ServerEnv> {
  const { evident } = deps;
  const logger = deps.logger ?? silentLogger;
  const app = new Hono<ServerEnv>();
  app.route('/', healthRoutes());
  app.route('/', docsRoutes());
  app.use('/v1/*', authenticate({ store: evident.store, adminKey: deps.adminKey ?? evident.config.adminKey }));
  app.route('/v1', meRoutes());
  app.route('/v1', searchRoutes(evident));
  app.route('/v1', documentRoutes(evident, { logger }));
  app.route('/v1', memoryRoutes(evident));
  app.route('/v1', userRoutes(evident));
  app.notFound((c) => {
    const { status, body } = errorResponse(new EvidentError('not_found', `No route ${c.req.method} ${c.req.path}.`));
    return c.json(body, status);
  });
  app.onError((error, c) => {
    const { status, body } = errorResponse(error);
    if (status >= 500) logger.error('request failed', { path: c.req.path, code: body.error.code, error: String(error) });
    return c.json(body, status);
  });
  return app;
}
