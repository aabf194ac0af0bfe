import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';

/** Where `npm run build:web` puts the UI. */
export const WEB_DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'web', 'dist');

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Evident</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>Evident</h1>
<p>The web UI is not built yet. Run <code>npm run build:web</code> (or start the server with <code>npm start</code>, which builds it when needed), then reload this page.</p>
<p>The API is up: see <a href="/docs">/docs</a>.</p>
</body></html>`;

/**
 * The browser UI from `web/dist` at `/`. Mounted after the API routes, so they take precedence; a path that is no
 * file falls through to the app's JSON 404. Hashed assets are cached for good, `index.html` is revalidated so a
 * rebuild shows at once. Whether the UI is built is checked per request, so building it needs no restart.
 */
export function webRoutes(distDir: string = WEB_DIST): Hono {
  // Made on first use: serveStatic complains on the console when its root does not exist yet.
  let serveDist: MiddlewareHandler | undefined;
  return new Hono().get('*', async (c, next) => {
    if (!existsSync(join(distDir, 'index.html'))) {
      if (c.req.path === '/') return unframeable(c.html(NOT_BUILT_PAGE, 503));
      return next();
    }
    serveDist ??= serveStatic({ root: distDir });
    const found = await serveDist(c, next);
    // No Response when no file matched and the request went on to the next handler (the app's JSON 404).
    if (found instanceof Response) {
      found.headers.set(
        'Cache-Control',
        c.req.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      unframeable(found);
    }
    return found;
  });
}

/**
 * No other site may frame the UI (clickjacking: a page that overlays it to make a signed-in user click Approve):
 * `frame-ancestors 'none'` for browsers that read CSP, `X-Frame-Options: DENY` for the rest.
 */
export function unframeable(response: Response): Response {
  response.headers.set('Content-Security-Policy', "frame-ancestors 'none'");
  response.headers.set('X-Frame-Options', 'DENY');
  return response;
}
