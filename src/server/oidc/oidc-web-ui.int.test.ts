import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWeb } from '../../../scripts/ensure-web-build.ts';
import { startOidcEvident, type OidcEvidentServer } from '../../testing/oidc-evident-server.ts';
import { chromiumBrowser, describeWith } from '../../testing/requirements.ts';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const LEGAL_DOC = 'contracts/ct-2024-0193.md';

let server: OidcEvidentServer;
let browser: Browser;

/** Clicks "Sign in with Test IdP" and signs in at the provider's login form as `login`; back on Evident, signed in. */
async function signInWithProvider(page: Page, login: string): Promise<void> {
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await page.waitForURL((url) => url.origin === server.provider.issuer);
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page
    .getByTestId('user-name')
    .filter({ hasText: new RegExp(`^${login}$`) })
    .waitFor();
}

async function documentIds(page: Page): Promise<string[]> {
  await page.getByRole('link', { name: 'Documents' }).click();
  const table = page.getByTestId('document-table');
  await table.waitFor();
  return table.locator('tbody tr td:first-child code').allTextContents();
}

describeWith(chromiumBrowser(), 'signing in to the web UI with the OpenID provider, in Chromium', (executablePath) => {
  beforeAll(async () => {
    await buildWeb({ quiet: true });
    server = await startOidcEvident({
      users: { alice: { groups: ['legal'] }, bob: { groups: ['sales'] } },
      agents: true,
    });
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("signs alice in through the provider, shows her group's documents, and signs her out at the provider too", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await signInWithProvider(page, 'alice');
    expect(await page.locator('.who-am-i').textContent()).toContain('legal');
    expect(await documentIds(page)).toContain(LEGAL_DOC);
    const cookies = await context.cookies(server.url);
    const session = cookies.find((cookie) => cookie.name === 'evident_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    // Sign-out ends the session here and at the provider (RP-initiated logout), then comes back to the sign-in screen.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === server.provider.issuer);
    expect(server.provider.requests).toContain('/session/end');
    await page.getByRole('button', { name: /yes, sign me out/i }).click();
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
    expect(new URL(page.url()).origin).toBe(server.url);
    const stale = await fetch(`${server.url}/v1/me`, { headers: { cookie: `evident_session=${session?.value}` } });
    expect(stale.status).toBe(401);
    // The provider's session ended too: signing in again asks for the login.
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.locator('input[name=login]').waitFor();
    await context.close();
  });

  it("shows bob (sales) none of legal's documents, and applies a group removed at the provider at the next sign-in", async () => {
    const bob = await browser.newContext();
    const bobPage = await bob.newPage();
    await bobPage.goto(`${server.url}/`);
    await signInWithProvider(bobPage, 'bob');
    expect(await documentIds(bobPage)).not.toContain(LEGAL_DOC);
    await bob.close();

    server.provider.users.alice = { groups: ['marketing'] };
    const alice = await browser.newContext();
    const page = await alice.newPage();
    await page.goto(`${server.url}/`);
    await signInWithProvider(page, 'alice');
    expect(await page.locator('.who-am-i').textContent()).toContain('marketing');
    expect(await documentIds(page)).not.toContain(LEGAL_DOC);
    await alice.close();
  });
});
