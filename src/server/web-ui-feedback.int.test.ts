import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/ensure-web-build.ts';
import { openAgentRuntime, type AgentRuntime } from '../agent/agent-runtime.ts';
import { ensureSampleCorpus } from '../cli/sample-corpus.ts';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { chromiumBrowser, describeWith } from '../testing/requirements.ts';
import { createApp } from './create-app.ts';
import { startServer, type RunningServer } from './start-server.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCREENSHOTS = join(ROOT, 'test-output');
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const FEE_QUESTION = 'What is the termination fee of CT-2024-0193?';
const CORRECTION = 'EUR 48,000, payable within 30 days.';
/** How long a poll waits for the UI to catch up with a request (a run, a rating). */
const POLL = { timeout: 30_000 };

let dir: string;
let evident: Evident;
let agents: AgentRuntime;
let server: RunningServer;
let browser: Browser;
let aliceKey: string;

async function openSignedIn(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.getByLabel('API key').fill(aliceKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByTestId('user-name')
    .filter({ hasText: /^alice$/ })
    .waitFor();
  return page;
}

async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel('Question').fill(question);
  await page.getByLabel('Question').press('Enter');
}

/** Alice's stored ratings, newest first, as the admin's list has them. */
const alicesFeedback = () => evident.store.listFeedback({ rater: 'alice', limit: 10 });

describeWith(chromiumBrowser(), 'rating answers in the web UI', (executablePath) => {
  beforeAll(async () => {
    await buildWeb({ quiet: true });
    await mkdir(SCREENSHOTS, { recursive: true });
    dir = await mkdtemp(join(tmpdir(), 'evident-web-feedback-'));
    evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
    expect((await ensureSampleCorpus(evident))?.failed).toBe(0);
    aliceKey = (await evident.store.createApiKey('alice')).key;
    agents = await openAgentRuntime(evident);
    server = await startServer(createApp({ evident, agents }), { port: 0 });
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await agents?.close();
    await evident?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('rates an answer down with a reason and a correction, shows the rating after a reload, and changes it', async () => {
    const page = await openSignedIn();
    await ask(page, FEE_QUESTION);
    await page.getByTestId('answer').waitFor();
    const bar = page.getByTestId('feedback-bar');
    await bar.waitFor();
    const up = bar.getByRole('button', { name: /Thumbs up/ });
    const down = bar.getByRole('button', { name: /Thumbs down/ });
    await expect.poll(() => down.isEnabled(), POLL).toBe(true);
    expect(await down.getAttribute('aria-pressed')).toBe('false');

    await down.click();
    const form = bar.getByRole('form', { name: 'What was wrong' });
    await form.getByLabel('Reason').selectOption('incorrect');
    await form.getByLabel('The right answer (optional)').fill(CORRECTION);
    await form.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => bar.getByTestId('feedback-saved').textContent(), POLL).toContain('You rated this wrong');
    expect(await bar.getByTestId('feedback-saved').textContent()).toContain(CORRECTION);
    expect(await down.getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: join(SCREENSHOTS, 'answer-rated-down.png'), fullPage: true });

    // Saved through the API: the store has alice's rating of the run that answered, with the answer she saw.
    const [stored] = await alicesFeedback();
    expect(stored).toMatchObject({
      rater: 'alice',
      rating: 'down',
      reason: 'incorrect',
      correction: CORRECTION,
      question: FEE_QUESTION,
    });
    expect(await bar.getAttribute('data-run-id')).toBe(stored?.runId);
    expect(stored?.answer).toContain('48,000');

    // A reload shows her existing rating on the thread's answer.
    await page.reload();
    await page
      .getByTestId('user-name')
      .filter({ hasText: /^alice$/ })
      .waitFor();
    await page.locator('.thread-list .thread').first().click();
    const again = page.getByTestId('feedback-bar');
    await expect.poll(() => again.getByTestId('feedback-saved').textContent(), POLL).toContain('You rated this wrong');
    expect(await again.getByRole('button', { name: /Thumbs down/ }).getAttribute('aria-pressed')).toBe('true');

    // Changing her mind replaces the rating (and its correction).
    await again.getByRole('button', { name: /Thumbs up/ }).click();
    await expect.poll(() => again.getByTestId('feedback-saved').textContent(), POLL).toContain('You rated this right');
    expect(await alicesFeedback()).toMatchObject([{ runId: stored?.runId, rating: 'up' }]);
    expect((await alicesFeedback())[0]?.correction).toBeUndefined();
    await page.context().close();
  });

  it('puts a rating bar under each answer of a thread, each for its own run', async () => {
    const page = await openSignedIn();
    await page.getByRole('button', { name: 'New thread' }).click();
    await ask(page, FEE_QUESTION);
    await page.getByTestId('answer').waitFor();
    await page.getByTestId('feedback-bar').waitFor();
    await ask(page, 'What does CT-2024-0193 charge per parcel above 50,000 parcels a month?');
    await expect.poll(() => page.getByTestId('feedback-bar').count(), { timeout: 60_000 }).toBe(2);
    const bars = page.getByTestId('feedback-bar');
    const [first, second] = [
      await bars.nth(0).getAttribute('data-run-id'),
      await bars.nth(1).getAttribute('data-run-id'),
    ];
    expect(first).not.toBe(second);
    // The earlier answer's bar rates the earlier run.
    await expect
      .poll(
        () =>
          bars
            .nth(0)
            .getByRole('button', { name: /Thumbs up/ })
            .isEnabled(),
        POLL,
      )
      .toBe(true);
    await bars
      .nth(0)
      .getByRole('button', { name: /Thumbs up/ })
      .click();
    await expect.poll(() => bars.nth(0).getByTestId('feedback-saved').textContent(), POLL).toContain('right');
    const runs = await evident.store.listRuns(
      (await evident.store.getRun(first as string))?.threadId as string,
      'alice',
    );
    expect(runs.map((run) => run.runId)).toEqual([first, second]);
    expect((await evident.store.getFeedback(first as string, 'alice'))?.rating).toBe('up');
    expect(await evident.store.getFeedback(second as string, 'alice')).toBeUndefined();
    await page.context().close();
  });
});
