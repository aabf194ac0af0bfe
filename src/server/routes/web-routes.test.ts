import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoutes } from './web-routes.ts';

let dist: string;

/** An app shaped like createApp's: an API route first, the UI after it, JSON 404 for the rest. */
function appServing(distDir: string): Hono {
  const app = new Hono();
  // Like the key check: a middleware whose dispatch the static handler's fall-through returns through.
  app.use('/v1/*', async (_c, next) => {
    await next();
  });
  app.get('/v1/me', (c) => c.json({ user: 'alice' }));
  app.route('/', webRoutes(distDir));
  app.notFound((c) => c.json({ error: { code: 'not_found' } }, 404));
  return app;
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'evident-web-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
});

afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

describe('webRoutes', () => {
  it('serves index.html at / and revalidates it', async () => {
    const response = await appServing(dist).request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    // No other site may frame it (clickjacking).
    expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(await response.text()).toContain('<div id="root">');
  });

  it('serves hashed assets with a long cache life', async () => {
    const response = await appServing(dist).request('/assets/index-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toContain('immutable');
  });

  it('leaves API routes first and unknown paths to the JSON 404', async () => {
    const app = appServing(dist);
    expect(await (await app.request('/v1/me')).json()).toEqual({ user: 'alice' });
    for (const path of ['/assets/nothing.js', '/v1/nothing-here']) {
      const missing = await app.request(path);
      expect(missing.status, path).toBe(404);
      expect(await missing.json()).toEqual({ error: { code: 'not_found' } });
    }
    expect((await app.request('/../package.json')).status).toBe(404);
  });

  it('says how to build the UI when it is not built, and nothing else changes', async () => {
    const app = appServing(join(dist, 'not-built'));
    const page = await app.request('/');
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build:web');
    expect((await app.request('/assets/index-abc123.js')).status).toBe(404);
    expect((await app.request('/v1/me')).status).toBe(200);
  });
});
