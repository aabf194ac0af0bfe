import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/ensure-web-build.ts';
import { openAgentRuntime, type AgentRuntime } from '../agent/agent-runtime.ts';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { buildPdf, pdfTableLines } from '../testing/pdf-builder.ts';
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

/** A three-page report whose warranty term is on page 2, split over two lines of the page. */
const REPORT = buildPdf([
  [
    { text: 'Zephyr Pump Field Report', size: 18, bold: true },
    { text: 'Prepared for the service team in March.', gapBefore: 8 },
  ],
  [
    { text: 'Warranty', size: 14, bold: true },
    { text: 'The Zephyr pump warranty covers parts and labour and lasts', gapBefore: 8 },
    { text: 'thirty-six months from the date of delivery to the customer.' },
    { text: 'Claims go through the regional service desk.', gapBefore: 8 },
  ],
  [
    { text: 'Appendix', size: 14, bold: true },
    { text: 'Service desk hours are nine to five on weekdays.', gapBefore: 8 },
  ],
]);
/** A maintenance note whose one section runs over a page break: its chunk starts on page 1, the seal interval is on page 2. */
const MAINTENANCE = buildPdf([
  [
    { text: 'Impeller Maintenance', size: 14, bold: true },
    ...Array.from({ length: 52 }, (_, i) => ({
      text: `Inspection step ${i + 1}: check the housing bolts and the inlet screen for wear.`,
    })),
  ],
  [{ text: 'The impeller seal must be replaced every eighteen months of service.' }],
]);
/** A bulletin that is uploaded (not in a document root): its file is opened from the store. */
const BULLETIN = buildPdf([
  [
    { text: 'Orion Gearbox Service Bulletin', size: 18, bold: true },
    { text: 'Issued to the service team in April.', gapBefore: 8 },
  ],
  [
    { text: 'Lubrication', size: 14, bold: true },
    { text: 'The Orion gearbox oil must be changed every two thousand operating hours.', gapBefore: 8 },
  ],
]);
/** A data sheet whose table of pump models becomes a SQL table: a citation of its row marks the row's cells. */
const SPECS = buildPdf([
  [
    { text: 'Pump Data Sheet', size: 18, bold: true },
    { text: 'Flows are in litres per minute, heads in metres.', gapBefore: 8 },
    { text: 'Table 1: Rated performance by model', x: 72, y: 660 },
    ...pdfTableLines(
      [
        ['Model', 'Flow', 'Head'],
        ['Zephyr 100', '120', '30'],
        ['Zephyr 300', '340', '45'],
        ['Zephyr 500', '610', '60'],
      ],
      { columns: [72, 220, 320], top: 640 },
    ),
  ],
]);
const NOTES =
  '# Zephyr pump wiring\n\nThe Zephyr pump runs on a 400 volt three-phase supply.\n\nIt must be earthed at the terminal box.\n';

let dir: string;
let evident: Evident;
let agents: AgentRuntime;
let server: RunningServer;
let browser: Browser;
let aliceKey: string;
const ADMIN_KEY = 'web-citations-admin-key-0123456789';

/** What the test reads of a canvas in the page (the Node type check has no DOM types). */
interface BrowserCanvas {
  width: number;
  getBoundingClientRect(): { left: number; top: number; width: number };
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, width: number, height: number): { data: ArrayLike<number> };
  };
}

/** Whitespace apart, as citations are matched. */
const squeeze = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, '');

async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel('Question').fill(question);
  await page.getByLabel('Question').press('Enter');
}

/**
 * For each element `selector` finds on the sheet, the share of dark (glyph) pixels the canvas has under it (`on`) and in
 * a band 40% of its height just above it (`above`): a mark over printed words has ink under it, and the line before is
 * not under it.
 */
function inkUnder(sheet: Locator, selector: string): Promise<{ on: number; above: number }[]> {
  return sheet.evaluate((element, marks) => {
    const canvas = element.querySelector('canvas') as unknown as BrowserCanvas;
    const origin = canvas.getBoundingClientRect();
    const ratio = canvas.width / origin.width;
    const context = canvas.getContext('2d');
    const darkShare = (left: number, top: number, width: number, height: number): number => {
      const { data } = context.getImageData(
        Math.round((left - origin.left) * ratio),
        Math.round((top - origin.top) * ratio),
        Math.max(1, Math.round(width * ratio)),
        Math.max(1, Math.round(height * ratio)),
      );
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128 && (data[i + 3] ?? 0) > 128) dark += 1;
      return dark / (data.length / 4);
    };
    return [...element.querySelectorAll(marks)].map((mark) => {
      const box = mark.getBoundingClientRect();
      return {
        on: darkShare(box.left, box.top, box.width, box.height),
        above: darkShare(box.left, box.top - box.height * 0.45, box.width, box.height * 0.4),
      };
    });
  }, selector);
}

/** The cited page as the panel shows it, once drawn: its number, the quote's marks (text and boxes) and the canvas box. */
async function shownPdfPage(panel: Locator) {
  const sheet = panel.locator('.pdf-sheet');
  await sheet.waitFor();
  const marks = sheet.locator('mark.quote-mark');
  return {
    page: Number(await sheet.getAttribute('data-page-number')),
    label: await panel.getByTestId('pdf-page-label').textContent(),
    text: (await marks.allTextContents()).join(''),
    boxes: await marks.evaluateAll((items) =>
      items.map((item) => {
        const { left, right, top, bottom, width, height } = item.getBoundingClientRect();
        return { left, right, top, bottom, width, height };
      }),
    ),
    // Dark (glyph) pixels the canvas has under each mark: a highlight that lies over the drawn words, not beside them.
    inked: (await inkUnder(sheet, 'mark.quote-mark')).map((share) => share.on),
    canvas: (await sheet.locator('canvas').boundingBox())!,
  };
}

describeWith(chromiumBrowser(), 'citations in the web UI (Chromium)', (executablePath) => {
  beforeAll(async () => {
    await buildWeb({ quiet: true });
    await mkdir(SCREENSHOTS, { recursive: true });
    dir = await mkdtemp(join(tmpdir(), 'evident-web-citations-'));
    const docs = join(dir, 'docs');
    await mkdir(join(docs, 'reports'), { recursive: true });
    await mkdir(join(docs, 'notes'));
    await writeFile(join(docs, 'reports', 'zephyr-field-report.pdf'), REPORT);
    await writeFile(join(docs, 'notes', 'zephyr-wiring.md'), NOTES);
    await writeFile(join(docs, 'reports', 'impeller-maintenance.pdf'), MAINTENANCE);
    await writeFile(join(docs, 'reports', 'pump-specs.pdf'), SPECS);
    evident = await createEvident(
      loadConfig({ flags: { db: join(dir, 'store.db') }, env: { EVIDENT_DOCUMENT_ROOTS: docs }, cwd: dir }),
    );
    expect((await evident.ingestor.ingest([docs], { acl: ['group:service'] })).failed).toBe(0);
    await evident.store.upsertUser({ name: 'alice', groups: ['service'] });
    aliceKey = (await evident.store.createApiKey('alice')).key;
    agents = await openAgentRuntime(evident);
    server = await startServer(createApp({ evident, agents, adminKey: ADMIN_KEY }), { port: 0 });
    const upload = new FormData();
    upload.append('files', new Blob([new Uint8Array(BULLETIN)]), 'orion-bulletin.pdf');
    upload.append('folder', 'uploads');
    upload.append('acl', 'group:service');
    const uploaded = await fetch(`${server.url}/v1/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      body: upload,
    });
    expect(uploaded.status, await uploaded.text()).toBe(201);
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await agents?.close();
    await server?.close();
    await evident?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("opens a PDF citation at its page with the quote highlighted, a Markdown one in its chunk, both again after a reload, a quote from a chunk's next page there, and an uploaded PDF at its page", async () => {
    const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await page.getByLabel('API key').fill(aliceKey);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await ask(page, 'How long does the Zephyr pump warranty last?');
    const answer = page.getByTestId('answer');
    await answer.waitFor();
    const sources = await answer.locator('.sources li').allTextContents();
    const pdfSource = sources.findIndex((text) => text.includes('reports/zephyr-field-report.pdf'));
    expect(pdfSource, sources.join('\n')).toBeGreaterThanOrEqual(0);
    expect(sources[pdfSource]).toContain('p. 2');
    const pdfQuote = (await answer.locator('.sources li .quote').nth(pdfSource).textContent())!
      .trim()
      .replace(/^“|”$/g, '');

    await answer.locator('.sources li').nth(pdfSource).getByRole('button').click();
    const panel = page.getByTestId('citation-panel');
    const first = await shownPdfPage(panel);
    expect(first.page).toBe(2);
    expect(first.label).toBe('Page 2 of 3');
    // The marks hold exactly the quoted words, and lie on the drawn page.
    expect(squeeze(first.text)).toBe(squeeze(pdfQuote));
    expect(first.boxes.length).toBeGreaterThan(0);
    for (const box of first.boxes) {
      expect(box.width).toBeGreaterThan(2);
      expect(box.height).toBeGreaterThan(2);
      expect(box.left).toBeGreaterThanOrEqual(first.canvas.x - 1);
      expect(box.right).toBeLessThanOrEqual(first.canvas.x + first.canvas.width + 1);
      expect(box.top).toBeGreaterThanOrEqual(first.canvas.y - 1);
      expect(box.bottom).toBeLessThanOrEqual(first.canvas.y + first.canvas.height + 1);
    }
    // Each mark covers words: a tenth or more of its pixels are ink (blank paper would be none).
    for (const share of first.inked) expect(share).toBeGreaterThan(0.1);
    await page.screenshot({ path: join(SCREENSHOTS, 'citation-pdf-page.png') });

    // A second question in the same thread, answered from the Markdown notes: the chunk view marks its quote.
    await ask(page, 'Which supply voltage does the Zephyr pump run on?');
    await expect.poll(() => answer.textContent()).toContain('400 volt');
    const mdQuote = (await answer.locator('.sources li .quote').first().textContent())!.trim().replace(/^“|”$/g, '');
    await answer.getByRole('button', { name: 'Open source 1' }).first().click();
    expect(await panel.locator('code').first().textContent()).toBe('notes/zephyr-wiring.md');
    expect(await panel.locator('.pdf-view').count()).toBe(0);
    expect(squeeze(await panel.locator('.chunk-text mark').textContent())).toBe(squeeze(mdQuote));

    // The first answer is now an earlier turn: its citations still open the PDF page.
    const earlier = page.getByTestId('earlier-answer').first();
    await earlier.locator('.sources li').nth(pdfSource).getByRole('button').click();
    expect((await shownPdfPage(panel)).page).toBe(2);

    // After a reload, the thread's history carries both answers' citations.
    await page.reload();
    await page.locator('.thread-list button.thread').filter({ hasText: 'Zephyr pump warranty' }).first().click();
    await page.getByTestId('earlier-answer').first().waitFor();
    await page.getByTestId('earlier-answer').first().locator('.sources li').nth(pdfSource).getByRole('button').click();
    const reloaded = await shownPdfPage(page.getByTestId('citation-panel'));
    expect(reloaded.page).toBe(2);
    expect(squeeze(reloaded.text)).toBe(squeeze(pdfQuote));
    await page.getByTestId('answer').getByRole('button', { name: 'Open source 1' }).first().click();
    expect(squeeze(await page.getByTestId('citation-panel').locator('.chunk-text mark').textContent())).toBe(
      squeeze(mdQuote),
    );

    // A chunk that starts on page 1 and is quoted from its continuation on page 2 opens page 2.
    await page.getByRole('button', { name: 'New thread' }).click();
    await ask(page, 'How often must the impeller seal be replaced?');
    await expect.poll(() => page.getByTestId('answer').textContent()).toContain('eighteen months');
    const seal = page
      .getByTestId('answer')
      .locator('.sources li')
      .filter({ hasText: 'impeller-maintenance.pdf' })
      .first();
    expect(await seal.textContent()).toContain('p. 1');
    await seal.getByRole('button').click();
    const continued = await shownPdfPage(page.getByTestId('citation-panel'));
    expect(continued.label).toBe('Page 2 of 2');
    expect(squeeze(continued.text)).toBe(
      squeeze('The impeller seal must be replaced every eighteen months of service.'),
    );

    // An uploaded PDF, whose file the store keeps, opens at its cited page too.
    await page.getByRole('button', { name: 'New thread' }).click();
    await ask(page, 'How often must the Orion gearbox oil be changed?');
    await expect.poll(() => page.getByTestId('answer').textContent()).toContain('two thousand operating hours');
    const bulletin = page
      .getByTestId('answer')
      .locator('.sources li')
      .filter({ hasText: 'uploads/orion-bulletin.pdf' })
      .first();
    expect(await bulletin.textContent()).toContain('p. 2');
    await bulletin.getByRole('button').click();
    const uploadedPage = await shownPdfPage(page.getByTestId('citation-panel'));
    expect(uploadedPage.label).toBe('Page 2 of 2');
    expect(squeeze(uploadedPage.text)).toContain(squeeze('two thousand operating hours'));
    await context.close();
  });

  it('marks the cells of a cited table row over their ink on the PDF page', async () => {
    const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await page.getByLabel('API key').fill(aliceKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await ask(page, 'What is the Flow of the Zephyr 300?');
    const answer = page.getByTestId('answer');
    await expect.poll(() => answer.textContent()).toContain('340');
    const row = answer.locator('.sources li').filter({ hasText: 'reports/pump-specs.pdf' }).first();
    expect(await row.locator('.quote').textContent()).toContain('Model: Zephyr 300');
    await row.getByRole('button').click();
    const panel = page.getByTestId('citation-panel');
    const sheet = panel.locator('.pdf-sheet');
    await sheet.waitFor();
    expect(await panel.getByTestId('pdf-page-label').textContent()).toBe(
      "Page 1 of 1 — the cited row's 3 cells are marked",
    );
    // Each mark lies over its cell's printed words: ink under it, and blank paper a mark's height above (the row before
    // is a line away, not under the mark).
    const inked = await inkUnder(sheet, '.cell-mark');
    expect(inked).toHaveLength(3);
    for (const { on, above } of inked) {
      expect(on).toBeGreaterThan(0.05);
      expect(above).toBeLessThan(on / 4);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'citation-pdf-table-row.png') });
    await context.close();
  });
});
