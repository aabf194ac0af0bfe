import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { createApp } from '../server/create-app.ts';
import { startServer } from '../server/start-server.ts';

export const SCIM_TEST_ADMIN_KEY = 'scim-test-admin-key-0123456789';
export const SCIM_TEST_TOKEN = 'scim-test-token-0123456789abcdef0123456789abcdef';
/** A phrase only the legal document holds. */
export const LEGAL_PHRASE = 'Helios Analytics licence fee';

export interface ScimTestServer {
  evident: Evident;
  url: string;
  /** A fetch against the server that reads the answer whole. */
  call(
    method: string,
    path: string,
    init?: { token?: string | null; key?: string; json?: unknown; body?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; json: Record<string, unknown> | undefined; text: string }>;
  close(): Promise<void>;
}

/**
 * A real server on 127.0.0.1 over a fresh store (a SQLite file, or the PostgreSQL `databaseUrl`) with SCIM on (unless
 * `token` is null) and one document only `group:legal` may read. Calls carry the SCIM token unless told otherwise.
 */
export async function startScimTestServer(
  options: { databaseUrl?: string; token?: string | null } = {},
): Promise<ScimTestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-scim-'));
  const docs = join(dir, 'docs');
  await mkdir(join(docs, 'contracts'), { recursive: true });
  await writeFile(
    join(docs, 'contracts/helios.md'),
    `---\ntitle: Helios licence\nacl: [group:legal]\n---\n# Helios licence\n\nThe ${LEGAL_PHRASE} is 48,000 EUR a year.\n`,
  );
  const token = options.token === undefined ? SCIM_TEST_TOKEN : options.token;
  const evident = await createEvident(
    loadConfig({
      flags: options.databaseUrl ? { databaseUrl: options.databaseUrl } : { db: join(dir, 'store.db') },
      env: token === null ? {} : { EVIDENT_SCIM_TOKEN: token },
      cwd: dir,
    }),
  );
  const summary = await evident.ingestor.ingest([docs]);
  if (summary.failed > 0) throw new Error(`the test document did not ingest: ${JSON.stringify(summary.outcomes)}`);
  const http = await startServer(createApp({ evident, adminKey: SCIM_TEST_ADMIN_KEY }), { port: 0 });
  return {
    evident,
    url: http.url,
    async call(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const bearer = init.key ?? (init.token === undefined ? token : init.token);
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      let body = init.body;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/scim+json';
        body = JSON.stringify(init.json);
      }
      const response = await fetch(http.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, json, text };
    },
    async close() {
      await http.close();
      await evident.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
