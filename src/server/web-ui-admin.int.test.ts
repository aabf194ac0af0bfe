import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/ensure-web-build.ts';
import { openAgentRuntime, type AgentRuntime } from '../agent/agent-runtime.ts';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { chromiumBrowser, describeWith } from '../testing/requirements.ts';
import { createApp } from './create-app.ts';
import { startServer } from './start-server.ts';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const SCREENSHOTS = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'test-output');
const SECRET_DOC = 'contracts/helios.md';
const SECRET_QUERY = 'Helios Analytics licence fee';

interface AdminUiServer {
  url: string;
  evident: Evident;
  rootKey: string;
  memberKey: string;
  close(): Promise<void>;
}

let server: AdminUiServer;
let browser: Browser;

/** A server over a fresh SQLite file: one document only `group:legal` may read, an admin user and a member. */
async function startAdminUiServer(): Promise<AdminUiServer> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-web-ui-admin-'));
  const docs = join(dir, 'docs');
  await mkdir(join(docs, 'contracts'), { recursive: true });
  await writeFile(
    join(docs, SECRET_DOC),
    '---\ntitle: Helios Analytics licence\nacl: [group:legal]\n---\n# Helios Analytics licence\n\n' +
      'The Helios Analytics licence fee is 48,000 EUR a year for 250 named users.\n',
  );
  const evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
  expect((await evident.ingestor.ingest([docs])).failed).toBe(0);
  await evident.store.upsertUser({ name: 'root', groups: [], roles: ['admin'] });
  await evident.store.upsertUser({ name: 'bob', groups: ['engineering'] });
  const rootKey = (await evident.store.createApiKey('root')).key;
  const memberKey = (await evident.store.createApiKey('bob')).key;
  const agents: AgentRuntime = await openAgentRuntime(evident);
  const http = await startServer(createApp({ evident, agents }), { port: 0 });
  return {
    url: http.url,
    evident,
    rootKey,
    memberKey,
    async close() {
      await agents.close();
      await http.close();
      await evident.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh browser context (its own cookies and storage) on the UI, allowed to use the clipboard. */
async function openUi(): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  await page.goto(server.url + '/');
  return page;
}

/** Signs in the way the UI's sign-in screen does it today (an API key pasted), and waits for who it acts as. */
async function signIn(page: Page, key: string, user: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByTestId('user-name')
    .filter({ hasText: new RegExp(`^${user}$`) })
    .waitFor();
}

/** A request to the API over HTTP with a key, as a script would make it. */
async function call(key: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Opens a browser session with a key, as the key-paste sign-in does (`POST /v1/sessions`): its cookie. */
async function openSession(key: string): Promise<string> {
  const response = await fetch(server.url + '/v1/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ api_key: key }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const cookie = /evident_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error('POST /v1/sessions set no session cookie');
  return cookie;
}

const withCookie = (cookie: string, path: string) => fetch(server.url + path, { headers: { cookie } });

/** The doc ids a key's search returns for the secret document's words. */
async function searchedDocs(key: string): Promise<string[]> {
  const response = await call(key, 'POST', '/v1/search', { query: SECRET_QUERY });
  expect(response.status).toBe(200);
  const { results } = (await response.json()) as { results: { doc_id: string }[] };
  return results.map((result) => result.doc_id);
}

const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

const userRow = (page: Page, name: string) => page.getByTestId(`user-${name}`);

describeWith(chromiumBrowser(), 'the web UI admin pages', (executablePath) => {
  beforeAll(async () => {
    await buildWeb({ quiet: true });
    await mkdir(SCREENSHOTS, { recursive: true });
    server = await startAdminUiServer();
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  describe('an admin manages a user, their groups and their key in Chromium', () => {
    let page: Page;
    let graceKey: string;

    beforeAll(async () => {
      page = await openUi();
      await signIn(page, server.rootKey, 'root');
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it('opens the admin pages from the top bar and adds a user with a group and a role', async () => {
      await page.getByRole('navigation').getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('heading', { name: 'Users' }).waitFor();
      expect(await userRow(page, 'bob').getByTestId('user-groups').textContent()).toBe('engineering');

      await page.getByLabel('Name').fill('grace');
      await page.getByLabel(/^Groups/).fill('engineering, support');
      await page.getByLabel('Role').selectOption('member');
      await page.getByRole('button', { name: 'Add user' }).click();
      await userRow(page, 'grace').waitFor();
      expect(await userRow(page, 'grace').getByTestId('user-groups').textContent()).toBe('engineeringsupport');
      expect(await server.evident.store.getUser('grace')).toMatchObject({
        groups: ['engineering', 'support'],
        roles: ['member'],
      });

      // The same name again is refused here, with what to do instead; the user is left as they were.
      await page.getByLabel('Name').fill('grace');
      await page.getByLabel(/^Groups/).fill('legal');
      await page.getByRole('button', { name: 'Add user' }).click();
      await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('already exists');
      expect((await server.evident.store.getUser('grace'))?.groups).toEqual(['engineering', 'support']);
      await screenshot(page, 'admin-users');
    });

    it('creates a key shown once, with a copy button, that works over HTTP as the new user', async () => {
      await page.getByRole('link', { name: 'Keys of grace' }).click();
      await page.getByRole('button', { name: 'Create a key for grace' }).click();
      const shown = page.getByTestId('new-key');
      await shown.waitFor();
      graceKey = await shown.getByLabel('API key').inputValue();
      await screenshot(page, 'admin-new-key');
      expect(graceKey.length).toBeGreaterThan(20);

      await shown.getByRole('button', { name: 'Copy' }).click();
      await shown.getByText('Copied.').waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(graceKey);

      const me = await call(graceKey, 'GET', '/v1/me');
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ user: 'grace', groups: ['engineering', 'support'], roles: ['member'] });
      // The key table lists the key by its id, never the key itself.
      const table = page.getByTestId('key-table');
      await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
      expect(await table.textContent()).not.toContain(graceKey);

      // Once dismissed, the key is nowhere on the page any more.
      await shown.getByRole('button', { name: 'I have copied it' }).click();
      await shown.waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(graceKey);
    });

    it("changes the user's groups, and what their key can search follows at once", async () => {
      expect(await searchedDocs(graceKey)).not.toContain(SECRET_DOC);

      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Users' }).click();
      await page.getByRole('button', { name: 'Edit grace' }).click();
      await page.getByLabel('Groups of grace').fill('legal');
      await page.getByRole('button', { name: 'Save grace' }).click();
      await expect.poll(() => userRow(page, 'grace').getByTestId('user-groups').textContent()).toBe('legal');
      expect(await searchedDocs(graceKey)).toContain(SECRET_DOC);

      // The groups page lists grace under legal; removing her (asked twice) takes the document away again.
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Groups' }).click();
      const legal = page.getByTestId('group-legal');
      await legal.waitFor();
      expect(await legal.locator('.member-list li').allTextContents()).toEqual(['graceRemove']);
      await legal.getByRole('button', { name: 'Remove grace from legal' }).click();
      expect(await searchedDocs(graceKey)).toContain(SECRET_DOC);
      await legal.getByRole('button', { name: 'Confirm: Remove grace from legal' }).click();
      await legal.waitFor({ state: 'detached' });
      expect((await server.evident.store.getUser('grace'))?.groups).toEqual([]);
      expect(await searchedDocs(graceKey)).not.toContain(SECRET_DOC);

      // A new group is named with its first member; a member is added through a group's card.
      await page.getByLabel('Group name').fill('legal');
      await page.getByLabel('First member').selectOption('grace');
      await page.getByRole('button', { name: 'Create group' }).click();
      await page.getByTestId('group-legal').waitFor();
      expect(await searchedDocs(graceKey)).toContain(SECRET_DOC);
      const engineering = page.getByTestId('group-engineering');
      await engineering.getByLabel('Add a member to engineering').selectOption('grace');
      await engineering.getByRole('button', { name: 'Add' }).click();
      await expect
        .poll(async () => (await server.evident.store.getUser('grace'))?.groups)
        .toEqual(['legal', 'engineering']);
      await screenshot(page, 'admin-groups');
    });

    it('deactivates the user after a confirmation (their key is refused at once) and reactivates them', async () => {
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Users' }).click();
      await page.getByRole('button', { name: 'Deactivate grace' }).click();
      expect((await call(graceKey, 'GET', '/v1/me')).status).toBe(200);
      await page.getByRole('button', { name: 'Confirm: Deactivate grace' }).click();
      await expect.poll(() => userRow(page, 'grace').getByTestId('user-status').textContent()).toBe('deactivated');
      expect((await call(graceKey, 'GET', '/v1/me')).status).toBe(401);

      await page.getByRole('button', { name: 'Reactivate grace' }).click();
      await expect.poll(() => userRow(page, 'grace').getByTestId('user-status').textContent()).toBe('active');
      expect((await call(graceKey, 'GET', '/v1/me')).status).toBe(200);
    });

    it("lists a user's browser sessions with how they signed in, and revokes one (its cookie is refused)", async () => {
      const cookie = await openSession(server.memberKey);
      expect((await withCookie(cookie, '/v1/me')).status).toBe(200);

      await page.getByRole('link', { name: 'Sessions of bob' }).click();
      const table = page.getByTestId('session-table');
      await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
      const row = table.locator('tbody tr');
      expect(await row.locator('td').nth(0).textContent()).toBe('bob');
      expect(await row.locator('td').nth(1).textContent()).toBe('API key');
      await screenshot(page, 'admin-sessions');

      await row.getByRole('button', { name: /^Revoke bob's session/ }).click();
      expect((await withCookie(cookie, '/v1/me')).status).toBe(200);
      await page.getByRole('button', { name: /^Confirm: Revoke bob's session/ }).click();
      await page.getByText('No open sessions.').waitFor();
      expect((await withCookie(cookie, '/v1/me')).status).toBe(401);

      // Every user's sessions: the admin's own, opened by the key screen, is marked as this session.
      await page.getByLabel('User').selectOption({ label: 'Every user' });
      const own = table.locator('tbody tr').filter({ hasText: 'this session' });
      await own.waitFor();
      expect(await own.locator('td').nth(0).textContent()).toBe('rootthis session');
      expect(await own.locator('td').nth(1).textContent()).toBe('API key');
    });

    it("pages through every user's sessions, 100 at a time", async () => {
      for (const name of ['s1', 's2', 's3']) {
        await server.evident.store.upsertUser({ name, groups: [] });
        const key = (await server.evident.store.createApiKey(name)).key;
        for (let i = 0; i < 35; i++) await openSession(key);
      }
      // 105 sessions of s1-s3 and the admin's own.
      await page.goto(`${server.url}/#/admin/sessions/bob`);
      await page.getByLabel('User').selectOption({ label: 'Every user' });
      const rows = page.getByTestId('session-table').locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(100);
      await page.getByRole('button', { name: 'More sessions' }).click();
      await expect.poll(() => rows.count()).toBe(106);
      expect(await page.getByRole('button', { name: 'More sessions' }).count()).toBe(0);
      const users = await rows.locator('td:first-child').allTextContents();
      expect(new Set(users.filter((u) => /^s[1-3]$/.test(u))).size).toBe(3);
      expect(users.filter((u) => u === 's2')).toHaveLength(35);
    });

    it('revokes the key after a confirmation, and the key is refused (401) at once', async () => {
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('User').selectOption('grace');
      const table = page.getByTestId('key-table');
      await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
      const keyId = (await table.locator('tbody code').textContent()) ?? '';
      await table.getByRole('button', { name: `Revoke key ${keyId}` }).click();
      expect((await call(graceKey, 'GET', '/v1/me')).status).toBe(200);
      await table.getByRole('button', { name: `Confirm: Revoke key ${keyId}` }).click();
      await page.getByText('No keys.').waitFor();
      expect((await call(graceKey, 'GET', '/v1/me')).status).toBe(401);
    });
  });

  describe('a member', () => {
    it('sees no Admin entry, gets an admins-only notice at #/admin, and the server refuses the admin routes', async () => {
      const page = await openUi();
      await signIn(page, server.memberKey, 'bob');
      const nav = page.getByRole('banner').getByRole('navigation');
      expect(await nav.getByRole('link').allTextContents()).toEqual(['Chat', 'Documents', 'Graph']);

      await page.goto(server.url + '/#/admin/users');
      const notice = page.getByTestId('admins-only');
      await notice.waitFor();
      expect(await notice.textContent()).toContain('Admins only');
      expect(await page.getByTestId('user-table').count()).toBe(0);
      await screenshot(page, 'admin-members-notice');

      expect((await call(server.memberKey, 'GET', '/v1/users')).status).toBe(403);
      expect((await call(server.memberKey, 'POST', '/v1/users', { name: 'bob', groups: ['legal'] })).status).toBe(403);
      expect((await call(server.memberKey, 'POST', '/v1/users/bob/keys')).status).toBe(403);
      expect((await server.evident.store.getUser('bob'))?.groups).toEqual(['engineering']);
      await page.context().close();
    });
  });
});
