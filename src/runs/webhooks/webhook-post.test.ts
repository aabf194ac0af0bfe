import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postWebhook, retryAfterMs, type WebhookPostOptions } from './webhook-post.ts';
import { checkWebhookTarget, type Resolver } from './webhook-target.ts';

interface Received {
  host: string | undefined;
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A receiver on 127.0.0.1 that records what reaches it and answers with `handler`. */
async function receiver(
  handler: (request: IncomingMessage, response: ServerResponse) => void = (_, response) => response.end('ok'),
): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      received.push({ host: request.headers.host, body });
      handler(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { port: (server.address() as AddressInfo).port, received };
}

const PRIVATE_OK = { allowedHosts: ['*'], allowHttp: true, allowPrivateTargets: true };
const PUBLIC_ONLY = { ...PRIVATE_OK, allowPrivateTargets: false };
const options = (extra: Partial<WebhookPostOptions> = {}): WebhookPostOptions => ({
  policy: PRIVATE_OK,
  timeoutMs: 2_000,
  maxResponseBytes: 1024,
  ...extra,
});

describe('one webhook attempt', () => {
  it('connects to the address the lookup checked, with the URL host as Host', async () => {
    const { port, received } = await receiver();
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const result = await postWebhook(`http://receiver.test:${port}/hook?x=1`, '{"a":1}', {}, options({ resolve }));
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(received).toEqual([{ host: `receiver.test:${port}`, body: '{"a":1}' }]);
  });

  it('refuses a host that rebinds to loopback between the check at run start and the connection', async () => {
    const { port, received } = await receiver();
    let answers = 0;
    // First answer public (the run start's check), then loopback (what an attacker's DNS says at send time).
    const rebinding: Resolver = async () => [
      answers++ === 0 ? { address: '93.184.216.34', family: 4 } : { address: '127.0.0.1', family: 4 },
    ];
    await expect(checkWebhookTarget(`http://rebind.test:${port}/`, PUBLIC_ONLY, rebinding)).resolves.toBeInstanceOf(
      URL,
    );
    const result = await postWebhook(
      `http://rebind.test:${port}/`,
      '{}',
      {},
      options({ policy: PUBLIC_ONLY, resolve: rebinding }),
    );
    expect(result).toMatchObject({ kind: 'refused' });
    expect((result as { error: string }).error).toMatch(/rebind\.test resolves to 127\.0\.0\.1/);
    expect(received).toEqual([]);
  });

  it('re-checks the URL when sending: a literal loopback address is refused without a connection', async () => {
    const { port, received } = await receiver();
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://2130706433:${port}/`,
    ]) {
      expect(await postWebhook(url, '{}', {}, options({ policy: PUBLIC_ONLY }))).toMatchObject({ kind: 'refused' });
    }
    expect(received).toEqual([]);
  });

  it('counts a resolver failure at send time as a network error (retried), not a refusal', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND receiver.test'), { code: 'ENOTFOUND' });
    };
    const result = await postWebhook('http://receiver.test:9/', '{}', {}, options({ resolve: failing }));
    expect(result).toEqual({ kind: 'network', error: 'The connection failed (ENOTFOUND).' });
  });

  it('never follows a redirect', async () => {
    const target = await receiver();
    const { port } = await receiver((_, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${target.port}/stolen` });
      response.end();
    });
    const result = await postWebhook(`http://127.0.0.1:${port}/`, '{}', {}, options());
    expect(result).toMatchObject({ kind: 'response', status: 302 });
    expect(target.received).toEqual([]);
  });

  it('reads at most maxResponseBytes of the answer, and gives up after the timeout', async () => {
    const big = await receiver((_, response) => response.end('x'.repeat(1_000_000)));
    const read = await postWebhook(`http://127.0.0.1:${big.port}/`, '{}', {}, options({ maxResponseBytes: 100 }));
    expect(read).toMatchObject({ kind: 'response', status: 200 });
    expect((read as { bodyBytes: number }).bodyBytes).toBeLessThanOrEqual(100);

    const silent = await receiver(() => undefined);
    const began = Date.now();
    const timedOut = await postWebhook(`http://127.0.0.1:${silent.port}/`, '{}', {}, options({ timeoutMs: 300 }));
    expect(timedOut).toMatchObject({ kind: 'network', error: 'No answer within 300 ms.' });
    expect(Date.now() - began).toBeLessThan(5_000);
  });

  it('reports Retry-After and a refused connection', async () => {
    const busy = await receiver((_, response) => {
      response.writeHead(429, { 'retry-after': '2' });
      response.end();
    });
    expect(await postWebhook(`http://127.0.0.1:${busy.port}/`, '{}', {}, options())).toMatchObject({
      kind: 'response',
      status: 429,
      retryAfterMs: 2000,
    });
    const closed = await receiver();
    servers.splice(servers.length - 1, 1)[0]?.close();
    await new Promise((done) => setTimeout(done, 50));
    expect(await postWebhook(`http://127.0.0.1:${closed.port}/`, '{}', {}, options())).toMatchObject({
      kind: 'network',
      error: 'The connection failed (ECONNREFUSED).',
    });
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8_000);
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
