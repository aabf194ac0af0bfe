import { createMiddleware } from 'hono/factory';

/**
 * Headers on every response: no other site may frame a page of this server (clickjacking: an overlay that makes a
 * signed-in user click Approve) — `frame-ancestors 'none'` for browsers that read CSP, `X-Frame-Options: DENY` for
 * the rest —, no MIME sniffing, no referrer to other sites. A route's own stricter CSP (the docs page, document
 * files) is kept; one without `frame-ancestors` gets it added.
 */
export function secureHeaders() {
  return createMiddleware(async (c, next) => {
    await next();
    // A response whose headers are immutable (one passed through from fetch) is copied first.
    if (!headersWritable(c.res.headers)) c.res = new Response(c.res.body, c.res);
    const headers = c.res.headers;
    const csp = headers.get('Content-Security-Policy');
    if (!csp) headers.set('Content-Security-Policy', "frame-ancestors 'none'");
    else if (!/frame-ancestors/i.test(csp)) headers.set('Content-Security-Policy', `${csp}; frame-ancestors 'none'`);
    headers.set('X-Frame-Options', 'DENY');
    headers.set('X-Content-Type-Options', 'nosniff');
    if (!headers.has('Referrer-Policy')) headers.set('Referrer-Policy', 'same-origin');
  });
}

function headersWritable(headers: Headers): boolean {
  try {
    headers.set('X-Frame-Options', 'DENY');
    return true;
  } catch {
    return false;
  }
}
