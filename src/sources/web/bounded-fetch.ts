import { SourceError } from '../../errors/index.ts';
import { formatBytes } from '../../ingest/limits.ts';
import { USER_AGENT } from './robots.ts';

export interface FetchBounds {
  /** Bytes of one response body; a larger one is stopped there and fails. */
  maxBytes: number;
  /** Redirects followed, each on the same origin only. */
  maxRedirects: number;
  timeoutMs: number;
}

export interface Fetched {
  status: number;
  /** The URL that answered (after same-origin redirects). */
  url: URL;
  headers: Headers;
  /** The body of a 2xx answer; empty for others. */
  body: Buffer;
}

/**
 * GETs `url` within `bounds`, following redirects by hand so none leaves `origin` and each hop is checked by
 * `allowed` (robots.txt) before it is requested. Conditional headers go on the first request only.
 */
export async function boundedFetch(
  url: URL,
  origin: string,
  bounds: FetchBounds,
  allowed: (url: URL) => boolean,
  conditional: Record<string, string> = {},
): Promise<Fetched> {
  let target = url;
  for (let hop = 0; ; hop += 1) {
    if (target.origin !== origin) {
      throw new SourceError(
        'source_refused',
        `${url.href} redirects to ${target.origin}, off the site's origin ${origin}; Evident does not follow it.`,
        {
          hint: 'Sync the other site by its own URL if it is meant to be ingested.',
        },
      );
    }
    if (!allowed(target)) {
      throw new SourceError(
        'source_refused',
        `${target.href} is disallowed for ${USER_AGENT} by ${origin}/robots.txt.`,
        {
          hint: "Ask the site's owner to allow it, or leave it out.",
        },
      );
    }
    let response: Response;
    try {
      response = await fetch(target, {
        redirect: 'manual',
        headers: { 'user-agent': `${USER_AGENT} (+https://github.com/evident)`, ...(hop === 0 ? conditional : {}) },
        signal: AbortSignal.timeout(bounds.timeoutMs),
      });
    } catch (cause) {
      const reason =
        (cause as Error)?.name === 'TimeoutError'
          ? `no answer within ${bounds.timeoutMs} ms`
          : (((cause as Error)?.cause as Error)?.message ?? String(cause));
      throw new SourceError('source_unavailable', `${target.href} could not be fetched (${reason}).`, {
        cause,
        hint: 'Check that the site is up and reachable from here.',
      });
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
      await response.body?.cancel();
      if (hop >= bounds.maxRedirects) {
        throw new SourceError(
          'source_limit_exceeded',
          `${url.href} redirects more than ${bounds.maxRedirects} times.`,
          { hint: 'Sync the final URL.' },
        );
      }
      target = new URL(location, target);
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      await response.body?.cancel();
      return { status: response.status, url: target, headers: response.headers, body: Buffer.alloc(0) };
    }
    return {
      status: response.status,
      url: target,
      headers: response.headers,
      body: await readBounded(response, target, bounds.maxBytes),
    };
  }
}

async function readBounded(response: Response, url: URL, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new SourceError('source_limit_exceeded', `${url.href} is over the ${formatBytes(maxBytes)} limit for one page.`, {
      hint: 'Raise --max-page-bytes if the page is genuine.',
    });
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const parts: Buffer[] = [];
  let length = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    parts.push(Buffer.from(value));
  }
  return Buffer.concat(parts, length);
}
