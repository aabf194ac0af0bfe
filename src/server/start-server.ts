import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import type { ServerEnv } from './server-env.ts';

export interface StartServerOptions {
  /** 0 picks a free port (tests). */
  port: number;
  /** Loopback by default: exposing the server is a deliberate choice of the operator. */
  host?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting connections, ends idle keep-alive ones, and resolves once the server is closed. */
  close(): Promise<void>;
}

/** Serves an app over node:http and resolves once it listens. */
export async function startServer(app: Hono<ServerEnv>, options: StartServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createAdaptorServer({ fetch: app.fetch, port: options.port, hostname: host });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      }),
  };
}
