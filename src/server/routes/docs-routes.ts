import { Hono } from 'hono';
import { buildOpenApiDocument } from '../openapi/openapi-document.ts';
import { renderDocsHtml } from '../openapi/render-docs-html.ts';

/** The API's own description, without a key: `/openapi.json` for tools, `/docs` for people. Built once per app. */
export function docsRoutes(): Hono {
  const document = buildOpenApiDocument();
  const html = renderDocsHtml(document);
  return new Hono()
    .get('/openapi.json', (c) => c.json(document))
    .get('/docs', (c) => {
      // The page needs nothing from elsewhere; the policy makes sure it never loads or runs anything either.
      c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      c.header('X-Frame-Options', 'DENY');
      return c.html(html);
    });
}
