/** The longest `return_to` kept (a path and query of the UI). */
export const MAX_RETURN_TO_CHARS = 2048;

const BASE = 'http://evident.invalid';

/**
 * Where to send the browser after sign-in: a path on this server only (no scheme, no host, no `//host`, no
 * backslash tricks, no control characters), bounded; anything else becomes `/`, so a sign-in link cannot be made
 * to end on another site (an open redirect).
 */
export function safeReturnTo(value: string | undefined): string {
  if (!value || value.length > MAX_RETURN_TO_CHARS) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value)) return '/';
  if (!URL.canParse(value, BASE)) return '/';
  const url = new URL(value, BASE);
  if (url.origin !== BASE) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
