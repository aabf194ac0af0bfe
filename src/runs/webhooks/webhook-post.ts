import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ValidationError } from '../../errors/index.ts';
import {
  bareHost,
  guardedLookup,
  parseWebhookUrl,
  systemResolver,
  type Resolver,
  type WebhookTargetPolicy,
} from './webhook-target.ts';

export interface WebhookPostOptions {
  policy: WebhookTargetPolicy;
  /** The whole attempt (connect, send, response) at most this long. */
  timeoutMs: number;
  /** At most this much of the response body is read; the rest is dropped with the connection. */
  maxResponseBytes: number;
  /** Aborts the attempt (the server shutting down). */
  signal?: AbortSignal;
  resolve?: Resolver;
}

/** What one attempt came to. */
export type WebhookPostResult =
  /** The receiver answered (any status: a redirect is reported, never followed). */
  | { kind: 'response'; status: number; retryAfterMs?: number; bodyBytes: number }
  /** The guard refused the URL or the address its host resolved to: nothing was sent. */
  | { kind: 'refused'; error: string }
  /** No answer: a connection or TLS error, a reset, or the timeout. */
  | { kind: 'network'; error: string };

/** A Retry-After header (seconds or an HTTP date) in milliseconds from now, if it says. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d{1,9}$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * POSTs one webhook attempt. The URL is checked again (the settings may have changed since the run started), the
 * host is resolved and every address checked by the socket's own lookup, so the request goes to a checked address;
 * no redirect is followed, no connection is reused, credentials are never sent, and the response is read up to a cap.
 */
export function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: WebhookPostOptions,
): Promise<WebhookPostResult> {
  let url: URL;
  try {
    url = parseWebhookUrl(target, options.policy);
  } catch (error) {
    return Promise.resolve({ kind: 'refused', error: (error as Error).message });
  }
  const host = bareHost(url);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((settle) => {
    let settled = false;
    const done = (result: WebhookPostResult) => {
      if (settled) return;
      settled = true;
      settle(result);
    };
    const request = client.request(
      {
        method: 'POST',
        host,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: {
          ...headers,
          host: url.host,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
        // A fresh connection per attempt, to the address the lookup checked; TLS verifies the URL's host name.
        agent: false,
        lookup: guardedLookup(options.policy, options.resolve ?? systemResolver),
        ...(url.protocol === 'https:' && isIP(host) === 0 ? { servername: host } : {}),
        signal,
      },
      (response) => {
        let bytes = 0;
        const status = response.statusCode ?? 0;
        const retryAfter = retryAfterMs(response.headers['retry-after']);
        const answered = () =>
          done({
            kind: 'response',
            status,
            bodyBytes: bytes,
            ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
          });
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes >= options.maxResponseBytes) {
            bytes = Math.min(bytes, options.maxResponseBytes);
            answered();
            response.destroy();
          }
        });
        response.on('end', answered);
        // The status is known: a body cut short still counts as the receiver's answer.
        response.on('error', answered);
        response.on('close', answered);
      },
    );
    request.on('error', (error) => {
      if (ValidationError.isInstance(error)) done({ kind: 'refused', error: error.message });
      else if (timeout.aborted) done({ kind: 'network', error: `No answer within ${options.timeoutMs} ms.` });
      else if (signal.aborted)
        done({ kind: 'network', error: 'The attempt was stopped (the server is shutting down).' });
      else done({ kind: 'network', error: networkMessage(error) });
    });
    request.end(body);
  });
}

/** A connection error in words that name no internal detail beyond its code. */
const networkMessage = (error: NodeJS.ErrnoException): string =>
  error.code ? `The connection failed (${error.code}).` : `The connection failed: ${error.message.slice(0, 200)}`;
