import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentRuntime } from '../agent/agent-runtime.ts';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { createApp } from '../server/create-app.ts';
import { startServer, type RunningServer } from '../server/start-server.ts';
import { SAMPLE_CORPUS } from './sample-corpus-store.ts';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';

/** An HTTP answer read whole: status, headers, raw text and the parsed JSON (undefined when not JSON). */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface ApiTestServer {
  evident: Evident;
  url: string;
  /** alice (group legal) and bob (group engineering), members with stored keys. */
  keys: { admin: string; alice: string; bob: string };
  request(
    method: string,
    path: string,
    init?: { key?: string; headers?: Record<string, string>; body?: RequestInit['body']; json?: unknown },
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

/**
 * The real server over a fresh SQLite file in a temp folder, on 127.0.0.1 with a free port, with the sample corpus
 * (ACLs included) ingested. `env` is the environment `loadConfig` reads (e.g. a small EVIDENT_MAX_FILE_BYTES).
 */
export interface ApiTestServerOptions {
  env?: Record<string, string>;
  corpus?: boolean;
  /** Serve agents (the LangGraph API): the runtime to open over the test's Evident. */
  agents?: (evident: Evident) => AgentRuntime | Promise<AgentRuntime>;
  heartbeatMs?: number;
}

export async function startApiTestServer(options: ApiTestServerOptions = {}): Promise<ApiTestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-api-'));
  const evident = await createEvident(
    loadConfig({ flags: { db: join(dir, 'store.db') }, env: options.env ?? {}, cwd: dir }),
  );
  await evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
  await evident.store.upsertUser({ name: 'bob', groups: ['engineering'] });
  if (options.corpus !== false) {
    const summary = await evident.ingestor.ingest([SAMPLE_CORPUS]);
    if (summary.failed > 0) throw new Error(`the sample corpus did not ingest: ${JSON.stringify(summary.outcomes)}`);
  }
  const keys = {
    admin: TEST_ADMIN_KEY,
    alice: (await evident.store.createApiKey('alice')).key,
    bob: (await evident.store.createApiKey('bob')).key,
  };
  const agents = await options.agents?.(evident);
  const app = createApp({
    evident,
    adminKey: TEST_ADMIN_KEY,
    ...(agents ? { agents } : {}),
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
  });
  const server: RunningServer = await startServer(app, { port: 0 });
  return {
    evident,
    url: server.url,
    keys,
    async request(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      const body = init.json === undefined ? init.body : JSON.stringify(init.json);
      const response = await fetch(server.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    async close() {
      await agents?.close();
      await server.close();
      await evident.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
