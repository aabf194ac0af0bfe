import { createServer, type Server } from 'node:http';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/ensure-web-build.ts';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { chromiumBrowser, describeWith } from '../testing/requirements.ts';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

let api: ApiTestServer;
let browser: Browser;
/** Another origin on the same host (same site, other port): it gets the Lax cookie on its form posts. */
let attacker: { url: string; server: Server };

/** Pages of "another site": a form that posts to Evident, and a page that frames it. */
function startAttacker(target: string): Promise<{ url: string; server: Server }> {
  const pages: Record<string, string> = {
    '/post': `<!doctype html><form id="f" method="POST" action="${target}/threads"><input name="metadata" value="x"></form>
      <script>document.getElementById('f').submit()</script>`,
    '/frame': `<!doctype html><iframe id="victim" src="${target}/" width="800" height="600"></iframe>`,
  };
  return new Promise((resolve) => {
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(pages[request.url ?? ''] ?? 'not here');
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, server });
    });
  });
}

async function signedIn(): Promise<BrowserContext> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${api.url}/`);
  await page.getByLabel('API key').fill(api.keys.alice);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByTestId('user-name')
    .filter({ hasText: /^alice$/ })
    .waitFor();
  return context;
}

describeWith(chromiumBrowser(), 'the web UI signs in with a session cookie', (executablePath) => {
  beforeAll(async () => {
    await buildWeb({ quiet: true });
    api = await startApiTestServer({ corpus: false, agents: (evident) => openAgentRuntime(evident) });
    attacker = await startAttacker(api.url);
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    attacker?.server.close();
    await api?.close();
  });

  describe('in Chromium', () => {
    it('signs in with a key it keeps nowhere, survives a reload on the cookie alone, and signs out', async () => {
      const context = await signedIn();
      const page = context.pages()[0];
      if (!page) throw new Error('no page');
      const storage = async () =>
        String(await page.evaluate('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })'));
      expect(await storage()).not.toContain(api.keys.alice);
      expect(await page.evaluate('document.cookie')).toBe('');
      const cookies = await context.cookies(api.url);
      expect(cookies).toEqual([
        expect.objectContaining({ name: 'evident_session', httpOnly: true, sameSite: 'Lax', path: '/', secure: false }),
      ]);
      expect(cookies[0]?.value).not.toContain(api.keys.alice);

      await page.reload();
      await page
        .getByTestId('user-name')
        .filter({ hasText: /^alice$/ })
        .waitFor();
      expect(await storage()).not.toContain(api.keys.alice);

      // A write through the UI's clients carries the CSRF token: the LangGraph SDK creates a thread.
      const created = await page.evaluate(`(async () => {
        const me = await (await fetch('/v1/me')).json();
        const post = (headers) => fetch('/threads', { method: 'POST', headers, body: '{}' });
        const withToken = await post({ 'content-type': 'application/json', 'x-csrf-token': me.csrf_token });
        const without = await post({ 'content-type': 'application/json' });
        return [withToken.status, without.status];
      })()`);
      expect(created).toEqual([200, 403]);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      expect(await context.cookies(api.url)).toEqual([]);
      // The cookie's session ended on the server too: the old token no longer works.
      const old = await api.request('GET', '/v1/me', {
        headers: { cookie: `evident_session=${cookies[0]?.value}` },
      });
      expect(old.status).toBe(401);
      await page.reload();
      await page.getByLabel('API key').waitFor();
      await context.close();
    });

    it('discards a key an earlier version stored, and asks to sign in', async () => {
      const context = await browser.newContext();
      // Set once, before the UI's first load, as an earlier version would have left it.
      await context.addInitScript(`if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('evident.apiKey', ${JSON.stringify(api.keys.alice)});
        sessionStorage.setItem('seeded', '1');
      }`);
      const page = await context.newPage();
      await page.goto(`${api.url}/`);
      await page.getByLabel('API key').waitFor();
      await expect.poll(() => page.evaluate("localStorage.getItem('evident.apiKey')")).toBeNull();
      await context.close();
    });

    it("refuses another origin's form post made with the signed-in browser's cookie", async () => {
      const context = await signedIn();
      const before = await api.request('POST', '/threads/search', { key: api.keys.alice, json: {} });
      const page = await context.newPage();
      await page.goto(`${attacker.url}/post`);
      await page.waitForURL(`${api.url}/threads`);
      const body = await page.locator('body').textContent();
      expect(body).toContain('csrf_rejected');
      const after = await api.request('POST', '/threads/search', { key: api.keys.alice, json: {} });
      expect((after.json as unknown[]).length).toBe((before.json as unknown[]).length);
      // The session itself is untouched.
      const ui = context.pages()[0];
      await ui?.reload();
      await ui
        ?.getByTestId('user-name')
        .filter({ hasText: /^alice$/ })
        .waitFor();
      await context.close();
    });

    it('cannot be framed by another site', async () => {
      const context = await signedIn();
      const page = await context.newPage();
      const blocked = page.waitForEvent('console', {
        predicate: (m) => /frame-ancestors|X-Frame-Options/.test(m.text()),
      });
      await page.goto(`${attacker.url}/frame`);
      expect((await blocked).text()).toMatch(/frame-ancestors 'none'|X-Frame-Options/);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(await frame?.locator('#api-key, [data-testid=user-name]').count()).toBe(0);
      await context.close();
    });
  });
});
