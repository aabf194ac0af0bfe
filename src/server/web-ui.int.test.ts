import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/ensure-web-build.ts';
import { openAgentRuntime, type AgentRuntimeOptions } from '../agent/agent-runtime.ts';
import { ensureSampleCorpus } from '../cli/sample-corpus.ts';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { createApp } from './create-app.ts';
import type { ServerEnv } from './server-env.ts';
import { startServer } from './start-server.ts';
import { RecordingChatModel, type RecordedCall, type ScriptedAnswer } from '../testing/recording-chat-model.ts';
import { RAG_PLANNING } from '../testing/rag-model-script.ts';
import { chromiumBrowser, describeWith } from '../testing/requirements.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCREENSHOTS = join(ROOT, 'test-output');
const ADMIN_KEY = 'web-ui-admin-key-0123456789';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
/** Between the chunks of every event stream the browser reads, like a slow network: each step then renders on its own. */
const STREAM_CHUNK_DELAY_MS = 40;

/** The real server over a fresh SQLite file with the sample corpus and users, on 127.0.0.1, as the browser sees it. */
interface UiServer {
  url: string;
  evident: Evident;
  aliceKey: string;
  /** A stored admin's key: the admin key opens no browser session. */
  rootKey: string;
  close(): Promise<void>;
}

let ui: UiServer;
let browser: Browser;

/** Delays each chunk of an event stream, so the browser sees the run's events arrive one by one. */
function paced(response: Response): Response {
  if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
  const delay = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      await new Promise((done) => setTimeout(done, STREAM_CHUNK_DELAY_MS));
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(delay), response);
}

async function startUiServer(options: AgentRuntimeOptions = {}): Promise<UiServer> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-web-ui-'));
  const evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
  const summary = await ensureSampleCorpus(evident);
  expect(summary?.failed).toBe(0);
  const aliceKey = (await evident.store.createApiKey('alice')).key;
  await evident.store.upsertUser({ name: 'root', groups: [], roles: ['admin'] });
  const rootKey = (await evident.store.createApiKey('root')).key;
  const agents = await openAgentRuntime(evident, options);
  const app = createApp({ evident, adminKey: ADMIN_KEY, agents });
  const slowNetwork = new Hono<ServerEnv>().all('*', async (c) => paced(await app.fetch(c.req.raw, c.env)));
  const server = await startServer(slowNetwork, { port: 0 });
  return {
    url: server.url,
    evident,
    aliceKey,
    rootKey,
    async close() {
      await agents.close();
      await server.close();
      await evident.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh browser page (its own storage) on the UI. */
async function openUi(server: UiServer = ui): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url + '/');
  return page;
}

async function signIn(page: Page, key: string, user: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByTestId('user-name')
    .filter({ hasText: new RegExp(`^${user}$`) })
    .waitFor();
}

async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel('Question').fill(question);
  await page.getByLabel('Question').press('Enter');
}

const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

// The browser, the built UI and the server start only when Chromium is there (skipped, or failed under CI, otherwise).
describeWith(chromiumBrowser(), 'the web UI', (executablePath) => {
  beforeAll(async () => {
    await buildWeb({ quiet: true });
    await mkdir(SCREENSHOTS, { recursive: true });
    ui = await startUiServer();
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
  });

  describe('the web UI in Chromium', () => {
    it("asks for a key, shows the server's hint for a wrong one, then who the key acts as", async () => {
      const page = await openUi();
      await page.getByLabel('API key').fill('evk_not-a-key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const refused = page.getByRole('alert');
      await expect.poll(() => refused.textContent()).toContain('Missing or invalid API key.');
      expect(await refused.textContent()).toContain('evident keys create');
      await screenshot(page, 'sign-in');

      await signIn(page, ui.aliceKey, 'alice');
      expect(await page.locator('.who-am-i').textContent()).toContain('legal');
      await page.reload();
      await expect.poll(() => page.getByTestId('user-name').textContent()).toBe('alice');
      await page.context().close();
    });

    describe('chat as alice (group legal)', () => {
      let page: Page;
      beforeAll(async () => {
        page = await openUi();
        // Records, at every DOM change, how many steps are shown and whether the answer is there yet.
        await page.addInitScript(`
          window.__stepTrace = [];
          new MutationObserver(() => {
            const steps = document.querySelectorAll('[data-testid=run-steps] li.step').length;
            const answered = document.querySelector('[data-testid=answer]') !== null;
            const last = window.__stepTrace[window.__stepTrace.length - 1];
            if (!last || last.steps !== steps || last.answered !== answered) window.__stepTrace.push({ steps, answered });
          }).observe(document, { childList: true, subtree: true });
        `);
        await page.reload();
        await signIn(page, ui.aliceKey, 'alice');
      });
      afterAll(async () => page?.context().close());

      it('streams the steps of a run as they happen, then answers with citations that open the cited chunk', async () => {
        await ask(page, 'What is the termination fee of contract CT-2024-0193?');
        const answer = page.getByTestId('answer');
        await answer.waitFor();
        expect(await answer.textContent()).toContain('$48,000');

        const trace = await page.evaluate(
          () => (globalThis as unknown as { __stepTrace: { steps: number; answered: boolean }[] }).__stepTrace,
        );
        const beforeAnswer = new Set(trace.filter((t) => !t.answered && t.steps > 0).map((t) => t.steps));
        expect(beforeAnswer.size, JSON.stringify(trace)).toBeGreaterThanOrEqual(3);

        const steps = page.locator('[data-testid=run-steps] li.step');
        const nodes = await steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-node')));
        expect(nodes).toEqual(
          expect.arrayContaining(['rewrite', 'retrieve', 'merge_rerank', 'check_answerability', 'generate']),
        );
        await page.locator('[data-testid=run-steps] > summary').click();
        expect(await page.locator('li.step[data-node=retrieve] .hits').textContent()).toMatch(/bm25\s*\d+ hits/);
        expect(await page.locator('li.step[data-node=check_answerability] .verdict').textContent()).toBe('answerable');
        expect(await page.getByTestId('origin-label').textContent()).toContain('Offline answer');

        await answer.getByRole('button', { name: 'Open source 1' }).first().click();
        const panel = page.getByTestId('citation-panel');
        await panel.waitFor();
        expect(await panel.textContent()).toContain('contracts/ct-2024-0193.md');
        const highlighted = await panel.locator('mark').textContent();
        expect(highlighted?.length).toBeGreaterThan(10);
        expect(await panel.locator('.chunk-text').textContent()).toContain(highlighted);
        await screenshot(page, 'chat-answer-citation');
      });

      it('refuses, distinctly, when the evidence does not hold the answer, and says what is missing', async () => {
        await page.getByRole('button', { name: 'New thread' }).click();
        await ask(page, 'What is the termination fee of CT-2023-0077?');
        const refusal = page.getByTestId('refusal');
        await refusal.waitFor();
        expect(await refusal.textContent()).toContain("I don't know based on the current evidence");
        const missing = await refusal.locator('.missing-information li').allTextContents();
        expect(missing.join(' ')).toContain('termination fee of CT-2023-0077');
        expect(await page.getByTestId('answer').count()).toBe(0);
        await screenshot(page, 'chat-refusal');
      });

      it('waits for approval before saving a memory, then saves it once approved', async () => {
        await page.getByRole('button', { name: 'New thread' }).click();
        await ask(page, 'Remember that I prefer answers in bullet points');
        const card = page.getByTestId('approval-card');
        await card.waitFor();
        expect(await card.locator('.tool-name').textContent()).toBe('save_memory');
        expect(await card.textContent()).toContain('I prefer answers in bullet points');
        expect(await ui.evident.store.listMemories('alice')).toEqual([]);
        await screenshot(page, 'chat-approval');

        await card.getByRole('button', { name: 'Approve' }).click();
        await card.waitFor({ state: 'detached' });
        await expect
          .poll(async () => (await ui.evident.store.listMemories('alice')).map((memory) => memory.text))
          .toEqual(['I prefer answers in bullet points']);
        await page.locator('li.step[data-node=save_memory]').waitFor();
        await page.locator('[data-testid=run-steps] > summary', { hasText: 'How this was answered' }).waitFor();
        expect(await page.getByRole('alert').count()).toBe(0);
        // The thread list refreshes after the run ends; poll rather than read it once.
        await expect
          .poll(() => page.locator('.thread.selected .thread-time').textContent())
          .not.toContain('waiting for approval');
        await screenshot(page, 'chat-approved');
      });

      it("lists the threads newest first and loads a chosen thread's state", async () => {
        const titles = page.locator('.thread-list .thread-title');
        await expect
          .poll(() => titles.allTextContents())
          .toEqual([
            'Remember that I prefer answers in bullet points',
            'What is the termination fee of CT-2023-0077?',
            'What is the termination fee of contract CT-2024-0193?',
          ]);
        await titles.last().click();
        const answer = page.getByTestId('answer');
        await answer.waitFor();
        expect(await answer.textContent()).toContain('$48,000');
        await answer.getByRole('button', { name: 'Open source 1' }).first().click();
        expect(await page.getByTestId('citation-panel').textContent()).toContain('contracts/ct-2024-0193.md');
      });

      it("draws the agent's graph, with conditional edges dashed", async () => {
        await page.getByRole('link', { name: 'Graph' }).click();
        const graph = page.getByTestId('graph');
        await graph.waitFor();
        const served = await fetch(ui.url + '/assistants/rag/graph', { headers: { 'x-api-key': ui.aliceKey } });
        const json = (await served.json()) as { nodes: { id: string }[]; edges: { conditional?: boolean }[] };
        const drawn = await graph
          .locator('g.node')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node')));
        expect(drawn.sort()).toEqual(json.nodes.map((node) => node.id).sort());
        expect(await graph.locator('g.edge').count()).toBe(json.edges.length);
        expect(await graph.locator('g.edge.conditional path[stroke-dasharray]').count()).toBe(
          json.edges.filter((edge) => edge.conditional).length,
        );
        await screenshot(page, 'graph');
      });

      it('keeps the chosen thread while another page is shown', async () => {
        await page.getByRole('link', { name: 'Chat' }).click();
        expect(await page.getByTestId('answer').textContent()).toContain('$48,000');
        expect(await page.locator('.thread.selected .thread-title').textContent()).toBe(
          'What is the termination fee of contract CT-2024-0193?',
        );
      });

      it("keeps each agent's threads and graph apart when another agent is chosen", async () => {
        await page.getByRole('link', { name: 'Graph' }).click();
        const ragNodes = await page.locator('[data-testid=graph] g.node').count();
        await page.getByRole('combobox', { name: 'Agent' }).selectOption('react');
        await expect.poll(() => page.locator('h2 code').textContent()).toBe('react');
        await expect.poll(() => page.locator('[data-testid=graph] g.node').count()).not.toBe(ragNodes);
        await page.getByRole('link', { name: 'Chat' }).click();
        await expect.poll(() => page.locator('.thread-list .thread').count()).toBe(0);
        await page.getByRole('combobox', { name: 'Agent' }).selectOption('rag');
        await expect.poll(() => page.locator('.thread-list .thread').count()).toBe(3);
      });

      it('saves the edited text when an approval is edited, and nothing when it is rejected', async () => {
        await page.getByRole('button', { name: 'New thread' }).click();
        await ask(page, 'Remember that I work on supplier contracts');
        const card = page.getByTestId('approval-card');
        await card.getByRole('button', { name: 'Edit' }).click();
        await card.getByLabel('text').fill('I work on supplier contracts in the EU');
        await card.getByRole('button', { name: 'Approve edited' }).click();
        await card.waitFor({ state: 'detached' });
        await page.locator('[data-testid=run-steps] > summary', { hasText: 'How this was answered' }).waitFor();
        const texts = async () => (await ui.evident.store.listMemories('alice')).map((memory) => memory.text).sort();
        expect(await texts()).toEqual(['I prefer answers in bullet points', 'I work on supplier contracts in the EU']);

        await page.getByRole('button', { name: 'New thread' }).click();
        await ask(page, 'Remember that I like long answers');
        await card.getByRole('button', { name: 'Reject' }).click();
        await card.waitFor({ state: 'detached' });
        await page.locator('[data-testid=run-steps] > summary', { hasText: 'How this was answered' }).waitFor();
        expect(await page.getByRole('alert').count()).toBe(0);
        expect(await texts()).toEqual(['I prefer answers in bullet points', 'I work on supplier contracts in the EU']);
      });
    });

    it('lets an admin upload a document with an ACL, following its progress, and delete it', async () => {
      const page = await openUi();
      await signIn(page, ui.rootKey, 'root');
      await page.getByRole('link', { name: 'Documents' }).click();
      const table = page.getByTestId('document-table');
      await table.waitFor();
      const contract = table.locator('tr', { hasText: 'contracts/ct-2024-0193.md' });
      expect(await contract.locator('.acl-entry').allTextContents()).toEqual(['group:legal', 'user:carol']);

      await page.getByLabel('Files').setInputFiles([
        {
          name: 'refund-policy.md',
          mimeType: 'text/markdown',
          buffer: Buffer.from('# Refund policy\n\nRefunds for order ORD-7731 are paid within 14 days.\n'),
        },
        { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) },
      ]);
      await page.getByLabel(/^Folder/).fill('uploads');
      await page.getByLabel(/^Who may read them/).fill('group:legal');
      await page.getByRole('button', { name: 'Upload 2 files' }).click();
      const result = page.getByTestId('upload-result');
      await result.waitFor();
      expect(await result.textContent()).toContain('1 ingested, 0 unchanged, 1 failed');
      expect(await page.getByLabel('Upload progress').getAttribute('value')).toBe('2');
      const failed = await result.locator('li.failed').textContent();
      expect(failed).toContain('uploads/empty.txt');
      expect(failed).toMatch(/empty/i);
      const uploaded = table.locator('tr', { hasText: 'uploads/refund-policy.md' });
      await uploaded.waitFor();
      expect(await uploaded.locator('.acl-entry').allTextContents()).toEqual(['group:legal']);
      await screenshot(page, 'documents-upload');

      await uploaded.getByRole('button', { name: 'Delete uploads/refund-policy.md' }).click();
      await uploaded.getByRole('button', { name: 'Confirm delete uploads/refund-policy.md' }).click();
      await uploaded.waitFor({ state: 'detached' });
      expect(await ui.evident.store.getDocument('uploads/refund-policy.md')).toBeUndefined();
      await page.context().close();
    });

    it('shows members only what they may read, without upload or delete', async () => {
      const page = await openUi();
      const bobKey = (await ui.evident.store.createApiKey('bob')).key;
      await signIn(page, bobKey, 'bob');
      await page.getByRole('link', { name: 'Documents' }).click();
      const table = page.getByTestId('document-table');
      await table.waitFor();
      const ids = await table.locator('tbody tr td:first-child').allTextContents();
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).not.toContain('contracts/ct-2024-0193.md');
      expect(await page.getByLabel('Files').count()).toBe(0);
      expect(await table.getByRole('button', { name: /^Delete / }).count()).toBe(0);
      await page.context().close();
    });
  });

  describe('the web UI with a chat model', () => {
    const model = new RecordingChatModel([], { standing: RAG_PLANNING });
    const gates: (() => void)[] = [];
    let withModel: UiServer;

    /** Scripts the model's next reply, given only once the test lets go; `reached` resolves when the run asks for it. */
    function heldReply(answer: (call: RecordedCall) => ScriptedAnswer): {
      reached: Promise<void>;
      release: () => void;
    } {
      let reached = () => {};
      let release = () => {};
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      model.push(async (call) => {
        reached();
        await gate;
        return answer(call);
      });
      gates.push(release);
      return { reached: reachedPromise, release };
    }

    beforeAll(async () => {
      withModel = await startUiServer({ chat: { id: 'recording:web-ui', model } });
    });
    afterAll(async () => {
      for (const release of gates.splice(0)) release();
      await withModel?.close();
    });

    it('shows the steps while the model is asked, its tokens as they stream, and names the model on the answer', async () => {
      const verdict = heldReply(() => ({
        answerable: true,
        reasons: ['the contract states the fee'],
        missing_information: [],
      }));
      const answer = heldReply((call) => {
        const chunkId =
          /\[chunk_id: (contracts\/ct-2024-0193\.md#\d+)\][^\n]*\n[^[]*\$48,000/.exec(call.prompt)?.[1] ?? 'missing';
        return {
          answer: 'The termination fee is $48,000 [1].',
          answerable: true,
          confidence: 0.9,
          citations: [
            {
              chunk_id: chunkId,
              doc_id: 'contracts/ct-2024-0193.md',
              source: 'contract',
              quote: 'triggers a termination fee of $48,000',
            },
          ],
          missing_information: [],
        };
      });
      const page = await openUi(withModel);
      await signIn(page, withModel.aliceKey, 'alice');
      await ask(page, 'What is the termination fee of contract CT-2024-0193?');

      // The run waits inside check_answerability: what came before is on screen, the answer is not.
      await verdict.reached;
      await page.locator('li.step[data-node=merge_rerank]').waitFor();
      expect(await page.locator('[data-testid=run-steps] > summary').textContent()).toContain('Working');
      expect(await page.getByTestId('answer').count()).toBe(0);

      // The verdict's tokens stream under their node while the run waits for the answer.
      verdict.release();
      await answer.reached;
      const tokens = page.locator('.token-stream');
      await tokens.filter({ hasText: '"answerable"' }).waitFor();
      // The model's planning steps streamed theirs first, each under its own node.
      expect(await tokens.locator('.step-node').allTextContents()).toEqual([
        'decompose',
        'route_question',
        'check_answerability',
      ]);
      expect(await tokens.locator('div').filter({ hasText: '"answerable"' }).locator('.step-node').textContent()).toBe(
        'check_answerability',
      );
      await screenshot(page, 'chat-model-streaming');

      answer.release();
      const shown = page.getByTestId('answer');
      await shown.waitFor();
      expect(await shown.textContent()).toContain('The termination fee is $48,000');
      expect(await page.getByTestId('origin-label').textContent()).toBe('Answered by recording:web-ui');
      expect(await tokens.count()).toBe(0);
      await shown.getByRole('button', { name: 'Open source 1' }).first().click();
      expect(await page.getByTestId('citation-panel').locator('mark').textContent()).toBe(
        'triggers a termination fee of $48,000',
      );
      expect(model.remaining).toBe(0);
      await page.context().close();
    });
  });
});
