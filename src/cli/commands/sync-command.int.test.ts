import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/run-cli.ts';

let dir: string;
let db: string;
let server: Server;
let origin: string;
const requests: { path: string; conditional: boolean }[] = [];
const pages = new Map<string, string>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-sync-cli-'));
  db = join(dir, 'store.db');
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    const body = pages.get(path);
    const etag =
      body === undefined ? undefined : `"${body.length}-${Buffer.from(body).toString('base64url').slice(-12)}"`;
    const conditional = req.headers['if-none-match'] !== undefined;
    requests.push({ path, conditional });
    if (body === undefined) return void res.writeHead(404).end();
    if (conditional && req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    const type = path.endsWith('.xml') ? 'application/xml' : path.endsWith('.txt') ? 'text/plain' : 'text/html';
    res.writeHead(200, { 'content-type': type, ...(etag ? { etag } : {}) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('evident sync and evident ingest <url> on the command line', () => {
  it('prints a dry run plan, then applies it; a missing folder is an error that changes nothing', async () => {
    const docs = join(dir, 'docs');
    await mkdir(docs);
    await writeFile(join(docs, 'a.md'), '# A\n\nAlpha.\n');
    const dry = await runCli(['--db', db, 'sync', docs, '--dry-run']);
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toBe(`plan for folder ${docs} (dry run, nothing written):\n  add       a.md\n  0 unchanged\n`);
    const run = await runCli(['--db', db, 'sync', docs]);
    expect(run.stdout).toBe(
      `  added       a.md\nfolder ${docs}: 1 added, 0 updated, 0 ACL updated (not re-embedded), 0 deleted, 0 unchanged, 0 failed\n`,
    );
    const json = await runCli(['--db', db, 'sync', docs, '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({
        source: `folder ${docs}`,
        dry_run: false,
        unchanged: 1,
        acl_updated: 0,
        plan: [{ action: 'unchanged', doc_id: 'a.md' }],
      }),
    ]);
    const missing = await runCli(['--db', db, 'sync', join(dir, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*nope does not exist or cannot be read, so nothing was synced from it\./);
    expect((await runCli(['--db', db, 'sync'])).stderr).toMatch(/Nothing to sync/);
  });

  it('ingests one page by URL, conditionally the second time, and syncs a sitemap', async () => {
    pages.set('/robots.txt', 'User-agent: *\nDisallow: /admin\n');
    pages.set('/guide.html', '<html><head><title>Guide</title></head><body><p>The orchid guide.</p></body></html>');
    pages.set('/faq.html', '<html><head><title>FAQ</title></head><body><p>Questions about tulips.</p></body></html>');
    pages.set(
      '/sitemap.xml',
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/guide.html</loc></url><url><loc>${origin}/faq.html</loc></url></urlset>`,
    );
    const first = await runCli(['--db', db, 'ingest', `${origin}/guide.html`]);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringContaining(`added       ${origin}/guide.html`) });
    requests.length = 0;
    const second = await runCli(['--db', db, 'ingest', `${origin}/guide.html`]);
    expect(second.stdout).toContain('1 unchanged');
    expect(requests).toEqual([
      { path: '/robots.txt', conditional: false },
      { path: '/guide.html', conditional: true },
    ]);

    const refused = await runCli(['--db', db, 'ingest', `${origin}/admin/keys.html`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/admin\/keys\.html is disallowed for evident by .*robots\.txt/);

    const sync = await runCli(['--db', db, 'sync', '--sitemap', `${origin}/sitemap.xml`]);
    expect(sync.code).toBe(0);
    expect(sync.stdout).toContain(
      `  added       ${origin}/faq.html\nsitemap ${origin}/sitemap.xml: 1 added, 0 updated, 0 ACL updated (not re-embedded), 0 deleted, 1 unchanged, 0 failed\n`,
    );
    pages.set(
      '/sitemap.xml',
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/faq.html</loc></url></urlset>`,
    );
    const removed = await runCli(['--db', db, 'sync', '--sitemap', `${origin}/sitemap.xml`]);
    expect(removed.stdout).toContain(`  deleted     ${origin}/guide.html\n`);
    const docs = await runCli(['--db', db, 'docs', 'list']);
    expect(docs.stdout).not.toContain('guide.html');
    expect(docs.stdout).toContain('faq.html');
  });
});
