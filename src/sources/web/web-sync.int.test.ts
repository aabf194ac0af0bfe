import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { LOCAL_OPERATOR } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { syncSource, type SyncReport } from '../sync-source.ts';
import { PageValidatorCache } from './page-validators.ts';
import { WebSource, type WebBounds } from './web-source.ts';
import { syncDepsOf } from '../open-sources.ts';

/** A small site on 127.0.0.1: pages by path, each with an ETag; records every request it gets. */
interface Site {
  origin: string;
  pages: Map<string, { status?: number; type?: string; body: string; location?: string; lastModified?: string }>;
  requests: { path: string; conditional: boolean; status: number }[];
  server: Server;
}

async function startSite(): Promise<Site> {
  const site = { pages: new Map(), requests: [] } as unknown as Site;
  site.server = createServer((req, res) => {
    const path = req.url ?? '/';
    const page = site.pages.get(path);
    // A page with lastModified is served with that validator only (no ETag).
    const etag =
      page && !page.lastModified ? `"${createHash('sha256').update(page.body).digest('hex').slice(0, 16)}"` : undefined;
    const conditional = req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
    let status = page ? (page.status ?? 200) : 404;
    const current = etag
      ? req.headers['if-none-match'] === etag
      : page?.lastModified !== undefined && req.headers['if-modified-since'] === page.lastModified;
    if (page && status === 200 && current) status = 304;
    site.requests.push({ path, conditional, status });
    const headers: Record<string, string> = { 'content-type': page?.type ?? 'text/html; charset=utf-8' };
    if (etag) headers.etag = etag;
    if (page?.lastModified) headers['last-modified'] = page.lastModified;
    if (page?.location) headers.location = page.location;
    res.writeHead(status, headers);
    res.end(status === 200 ? page?.body : undefined);
  });
  await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
  site.origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
  return site;
}

const html = (title: string, text: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`;

let dir: string;
let evident: Evident;
let site: Site;
let other: Site;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-web-sync-'));
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
  [site, other] = await Promise.all([startSite(), startSite()]);
  const o = site.origin;
  site.pages.set('/robots.txt', { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' });
  site.pages.set('/sitemap.xml', {
    type: 'application/xml',
    body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/sitemap-pages.xml</loc></sitemap></sitemapindex>`,
  });
  site.pages.set('/sitemap-pages.xml', {
    type: 'application/xml',
    body: urlset([
      `${o}/a.html`,
      `${o}/b.html#top`,
      `${o}/private/secret.html`,
      `${other.origin}/elsewhere.html`,
      `${o}/moved.html`,
    ]),
  });
  site.pages.set('/a.html', { body: html('Alpha', 'Alpha page about orchids.') });
  site.pages.set('/b.html', {
    body: html('Beta', 'Beta page about tulips.'),
    lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT',
  });
  site.pages.set('/private/secret.html', { body: html('Secret', 'Never fetched.') });
  site.pages.set('/moved.html', { status: 301, body: '', location: `${other.origin}/elsewhere.html` });
  other.pages.set('/elsewhere.html', { body: html('Elsewhere', 'Another origin.') });
});

afterEach(async () => {
  await evident.close();
  await Promise.all([site, other].map((s) => new Promise((resolve) => s.server.close(resolve))));
  await rm(dir, { recursive: true, force: true });
});

const web = (mode: 'sitemap' | 'page', url: string, bounds: Partial<WebBounds> = {}) =>
  new WebSource({ mode, url, bounds, validators: new PageValidatorCache(join(dir, 'web-validators.json')) });
const statuses = (report: SyncReport) =>
  Object.fromEntries(
    report.outcomes.map((o) => [o.docId.replace(site.origin, ''), o.error ? `${o.status}:${o.error.code}` : o.status]),
  );
const docIds = async () =>
  (await evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => doc.docId.replace(site.origin, '')).sort();

describe('evident sync --sitemap <url>', () => {
  it('ingests the same-origin pages robots.txt allows, re-fetches none unchanged, deletes removed pages', async () => {
    const first = web('sitemap', `${site.origin}/sitemap.xml`);
    const report = await syncSource(first, syncDepsOf(evident));
    expect(statuses(report)).toEqual({
      '/a.html': 'added',
      '/b.html': 'added',
      '/moved.html': 'failed:source_refused',
    });
    expect(report.outcomes.find((o) => o.docId.endsWith('/moved.html'))?.error?.message).toMatch(
      /redirects to http:\/\/127\.0\.0\.1:\d+, off the site's origin/,
    );
    expect(report.skipped).toEqual(first.skipped);
    expect(first.skipped).toEqual([
      { url: `${site.origin}/private/secret.html`, reason: 'robots' },
      { url: `${other.origin}/elsewhere.html`, reason: 'off_origin' },
    ]);
    expect(site.requests.map((r) => r.path)).not.toContain('/private/secret.html');
    expect(other.requests).toEqual([]); // neither the listed off-origin page nor the redirect's target
    expect(await docIds()).toEqual(['/a.html', '/b.html']);
    expect((await evident.store.getDocument(`${site.origin}/a.html`))?.source).toBe(`${site.origin}/a.html`);

    // Unchanged pages: conditional requests (If-None-Match for a.html, If-Modified-Since for b.html) answered 304.
    site.requests.length = 0;
    const second = web('sitemap', `${site.origin}/sitemap.xml`);
    expect(statuses(await syncSource(second, syncDepsOf(evident)))).toMatchObject({
      '/a.html': 'unchanged',
      '/b.html': 'unchanged',
    });
    expect(second.fetches).toEqual({ full: 0, notModified: 2 });
    expect(site.requests.filter((r) => r.path.endsWith('.html') && r.path !== '/moved.html')).toEqual([
      { path: '/a.html', conditional: true, status: 304 },
      { path: '/b.html', conditional: true, status: 304 },
    ]);

    // A page edited, a page gone from the sitemap, a page ingested from another origin that stays.
    await syncSource(web('page', `${other.origin}/elsewhere.html`), syncDepsOf(evident), { deleteUnlisted: false });
    site.pages.set('/b.html', {
      body: html('Beta', 'Beta page about roses now.'),
      lastModified: 'Thu, 03 Dec 2026 10:00:00 GMT',
    });
    site.pages.set('/sitemap-pages.xml', { type: 'application/xml', body: urlset([`${site.origin}/b.html`]) });
    const dry = await syncSource(web('sitemap', `${site.origin}/sitemap.xml`), syncDepsOf(evident), { dryRun: true });
    expect(
      dry.plan.map(
        (step) => `${step.action} ${('item' in step ? step.item.docId : step.stored.docId).replace(site.origin, '')}`,
      ),
    ).toEqual(['check /b.html', 'delete /a.html']);
    const third = web('sitemap', `${site.origin}/sitemap.xml`);
    expect(statuses(await syncSource(third, syncDepsOf(evident)))).toEqual({
      '/b.html': 'updated',
      '/a.html': 'deleted',
    });
    expect(third.fetches).toEqual({ full: 1, notModified: 0 });
    expect(await docIds()).toEqual([`${other.origin}/elsewhere.html`, '/b.html'].sort());
    expect((await evident.store.getChunks([`${site.origin}/b.html#0`], LOCAL_OPERATOR))[0]?.text).toContain(
      'roses now',
    );
  });

  it('changes nothing when the listing cannot be trusted: robots.txt failing, the sitemap gone, or over the bounds', async () => {
    await syncSource(web('sitemap', `${site.origin}/sitemap.xml`), syncDepsOf(evident));
    const before = await docIds();
    site.pages.set('/robots.txt', { status: 503, body: '' });
    await expect(syncSource(web('sitemap', `${site.origin}/sitemap.xml`), syncDepsOf(evident))).rejects.toMatchObject({
      code: 'source_unavailable',
    });
    site.pages.delete('/robots.txt'); // no robots.txt: everything allowed
    site.pages.delete('/sitemap-pages.xml');
    await expect(syncSource(web('sitemap', `${site.origin}/sitemap.xml`), syncDepsOf(evident))).rejects.toMatchObject({
      code: 'source_unavailable',
      message: expect.stringContaining('HTTP 404'),
    });
    site.pages.set('/sitemap-pages.xml', {
      type: 'application/xml',
      body: urlset([`${site.origin}/a.html`, `${site.origin}/b.html`]),
    });
    await expect(
      syncSource(web('sitemap', `${site.origin}/sitemap.xml`, { maxPages: 1 }), syncDepsOf(evident)),
    ).rejects.toMatchObject({ code: 'source_limit_exceeded' });
    await expect(
      syncSource(web('sitemap', `${site.origin}/sitemap.xml`, { maxDepth: 0 }), syncDepsOf(evident)),
    ).rejects.toMatchObject({ code: 'source_limit_exceeded' });
    expect(await docIds()).toEqual(before);
  });

  it('bounds each page: bytes, redirects (same origin only), HTML only', async () => {
    site.pages.set('/big.html', { body: html('Big', 'x'.repeat(5000)) });
    site.pages.set('/loop.html', { status: 302, body: '', location: '/loop.html' });
    site.pages.set('/hop.html', { status: 302, body: '', location: '/a.html' });
    site.pages.set('/style.css', { type: 'text/css', body: 'body {}' });
    site.pages.set('/sitemap-pages.xml', {
      type: 'application/xml',
      body: urlset(['/big.html', '/loop.html', '/hop.html', '/style.css'].map((p) => site.origin + p)),
    });
    const report = await syncSource(
      web('sitemap', `${site.origin}/sitemap.xml`, { maxBytes: 2000, maxRedirects: 3 }),
      syncDepsOf(evident),
    );
    expect(statuses(report)).toEqual({
      '/big.html': 'failed:source_limit_exceeded',
      '/loop.html': 'failed:source_limit_exceeded',
      '/hop.html': 'added',
      '/style.css': 'failed:source_invalid',
    });
    expect(site.requests.filter((r) => r.path === '/loop.html').length).toBe(4);
  });
});
