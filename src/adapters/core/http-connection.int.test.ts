import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteError, ServerUnreachableError, UnauthorizedError } from '../../errors/index.ts';
import { httpConnection } from './http-connection.ts';

/** A real HTTP server on 127.0.0.1 that answers as something other than Evident, per path. */
let server: Server;
let url: string;
const seen: { path: string; authorization: string | undefined; thread: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      seen.push({
        path,
        authorization: request.headers.authorization,
        thread: request.headers['x-evident-thread-id'] as string | undefined,
        body,
      });
      if (path === '/html/v1/search')
        return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>a proxy page</html>');
      if (path === '/broken/v1/search')
        return void response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
      if (path === '/refusing/v1/search')
        return void response
          .writeHead(409, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'thread_busy', message: 'Busy.', hint: 'Wait.' } }));
      if (path === '/locked/v1/search') return void response.writeHead(401).end();
      if (path === '/slow/v1/search') return void setTimeout(() => response.end('{}'), 2_000);
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

describe('httpConnection against servers that are not (well-behaved) Evident servers', () => {
  it('sends the key as a bearer token, to the server root given with or without a trailing slash', async () => {
    await httpConnection({ url: `${url}/html/`, apiKey: 'k-123' })
      .search('q', { topK: 3, channels: ['bm25'] })
      .catch(() => undefined);
    expect(seen.at(-1)).toMatchObject({ path: '/html/v1/search', authorization: 'Bearer k-123' });
    expect(JSON.parse(seen.at(-1)?.body ?? '{}')).toEqual({ query: 'q', top_k: 3, channels: ['bm25'] });
  });

  it("a 200 that is not Evident's answer is ServerUnreachableError, not data", async () => {
    await expect(httpConnection({ url: `${url}/html`, apiKey: 'k' }).search('q')).rejects.toBeInstanceOf(
      ServerUnreachableError,
    );
  });

  it("a refusal keeps the server's code, message, hint and status; a non-JSON failure keeps its status", async () => {
    await expect(httpConnection({ url: `${url}/refusing`, apiKey: 'k' }).search('q')).rejects.toMatchObject({
      code: 'thread_busy',
      message: 'Busy.',
      hint: 'Wait.',
      status: 409,
    });
    const broken = httpConnection({ url: `${url}/broken`, apiKey: 'k' }).search('q');
    await expect(broken).rejects.toBeInstanceOf(RemoteError);
    await expect(broken).rejects.toMatchObject({ code: 'internal', category: 'upstream', status: 502 });
  });

  it('401 is UnauthorizedError, and a server slower than the timeout is ServerUnreachableError', async () => {
    await expect(httpConnection({ url: `${url}/locked`, apiKey: 'k' }).search('q')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(httpConnection({ url: `${url}/slow`, apiKey: 'k', timeoutMs: 100 }).search('q')).rejects.toMatchObject(
      {
        code: 'server_unreachable',
        message: expect.stringContaining('did not answer within 100 ms'),
      },
    );
  });

  it('continues a thread through the thread header of /v1/chat/completions', async () => {
    await httpConnection({ url: `${url}/html`, apiKey: 'k' })
      .ask('q', { threadId: 't-1', agent: 'react' })
      .catch(() => undefined);
    expect(seen.at(-1)).toMatchObject({ path: '/html/v1/chat/completions', thread: 't-1' });
    expect(JSON.parse(seen.at(-1)?.body ?? '{}')).toEqual({
      model: 'react',
      messages: [{ role: 'user', content: 'q' }],
    });
  });
});
