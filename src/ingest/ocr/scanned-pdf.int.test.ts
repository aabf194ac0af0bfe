import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../../config/index.ts';
import type { Principal } from '../../domain/index.ts';
import { createEvident } from '../../evident.ts';
import { buildImagePdf } from '../../testing/image-pdf-builder.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { chineseFont, chromiumBrowser, describeWith, ocrTools } from '../../testing/requirements.ts';
import type { IngestSummary } from '../ingest-progress.ts';

const reader: Principal = { id: 'reader', groups: [], roles: ['member'] };
const DPI = 150;
// Each page is most of a chunk (chunk.size 200), so a chunk starts at each page and its page can be checked.
const ENGLISH_1 = [
  'The harbour authority inspects every vessel',
  'before it may leave the northern basin,',
  'and records the pilot who brings it out.',
];
const ENGLISH_2 = [
  'The dredging schedule moves to October',
  'because the tide tables changed this year,',
  'so the berths stay open through summer.',
];
const TYPED = [
  'Quarterly report of the port council.',
  'Typed text sits on this first page,',
  'and a scanned page follows it.',
];
const ENGLISH_3 = [
  'Ferry tickets are sold at the eastern gate',
  'from six in the morning until midnight,',
  'and children travel free at weekends.',
];
// Almost a chunk (chunk.size 200): the next chunk starts with the scanned page.
const COVER = [
  'Survey of the harbour, volume two.',
  'This cover page is typed; the page after it',
  'is a scan of a printed page in Chinese. It lists',
  'the berths, the ferries, the tides and the pilots.',
];
const CHINESE = [
  '光学字符识别把扫描的页面变成可以搜索的文字。',
  '检索增强生成需要每一页的证据。',
  '港口管理局每天检查进出港的船只，并记录引航员的姓名。',
  '疏浚计划推迟到十月，因为今年的潮汐表发生了变化。',
];

let root: string;
let scratch: string;

/** A text PDF rendered to a grayscale PNG at `DPI`, as a scanner would see the page. */
async function scan(pdf: Buffer, name: string): Promise<Buffer> {
  const path = join(scratch, `${name}.pdf`);
  await writeFile(path, pdf);
  execFileSync('pdftoppm', ['-r', String(DPI), '-gray', '-png', '-singlefile', path, join(scratch, name)], {
    timeout: 30_000,
  });
  return readFile(join(scratch, `${name}.png`));
}

/** A Chinese page as Chromium prints it (with a CJK font), then scanned. */
async function chineseScan(chromium: string): Promise<Buffer> {
  const html = join(scratch, 'zh.html');
  await writeFile(
    html,
    `<html><head><meta charset="utf-8"><style>body{font-size:28px;margin:60px}</style></head><body>${CHINESE.map((p) => `<p>${p}</p>`).join('')}</body></html>`,
  );
  execFileSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-pdf-header-footer',
      `--print-to-pdf=${join(scratch, 'zh-text.pdf')}`,
      `file://${html}`,
    ],
    {
      timeout: 60_000,
      stdio: 'ignore',
    },
  );
  execFileSync(
    'pdftoppm',
    [
      '-f',
      '1',
      '-l',
      '1',
      '-r',
      String(DPI),
      '-gray',
      '-png',
      '-singlefile',
      join(scratch, 'zh-text.pdf'),
      join(scratch, 'zh'),
    ],
    { timeout: 30_000 },
  );
  return readFile(join(scratch, 'zh.png'));
}

async function ingest(dir: string, ingestConfig: ConfigInput['ingest'], name: string) {
  const db = join(root, `${name}.db`);
  const logs: string[] = [];
  const logger = {
    debug: (message: string) => void logs.push(message),
    info() {},
    warn() {},
    error: (message: string) => void logs.push(message),
  };
  const evident = await createEvident(
    loadConfig({ env: {}, cwd: root, flags: { db, ingest: ingestConfig, chunk: { size: 200, overlap: 0 } } }),
    { logger },
  );
  return { evident, logs, summary: await evident.ingestor.ingest([dir]) };
}

const ocrTempDirs = async () => (await readdir(process.env.TMPDIR!)).filter((name) => name.startsWith('evident-ocr-'));
const outcome = (summary: IngestSummary, docId: string) => summary.outcomes.find((o) => o.docId === docId);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'evident-scans-'));
  scratch = join(root, 'scratch');
  await mkdir(scratch);
  // OCR's private temp folders are made here, so the test sees that none is left behind.
  process.env.TMPDIR = join(root, 'tmp');
  await mkdir(process.env.TMPDIR);
});

afterAll(async () => {
  delete process.env.TMPDIR;
  await rm(root, { recursive: true, force: true });
});

describeWith(ocrTools(), 'scanned PDFs through OCR', () => {
  let docs: string;
  beforeAll(async () => {
    docs = join(root, 'docs');
    await mkdir(docs);
    const page1 = await scan(buildPdf([ENGLISH_1.map((text) => ({ text, size: 14 }))]), 'en1');
    const page2 = await scan(buildPdf([ENGLISH_2.map((text) => ({ text, size: 14 }))]), 'en2');
    await writeFile(
      join(docs, 'scan.pdf'),
      buildImagePdf([
        { png: page1, dpi: DPI },
        { png: page2, dpi: DPI },
      ]),
    );
    const page3 = await scan(buildPdf([ENGLISH_3.map((text) => ({ text, size: 14 }))]), 'en3');
    await writeFile(join(docs, 'mixed.pdf'), buildImagePdf([{ text: TYPED }, { png: page3, dpi: DPI }]));
  }, 60_000);

  it('reads English scans on worker threads: searchable by their words, each chunk on its page, no temp files left', async () => {
    const { evident, summary, logs } = await ingest(
      docs,
      { workers: 2, workerMinDocuments: 1, ocr: { dpi: DPI } },
      'english',
    );
    try {
      expect(logs).toContain('ingest: documents are processed on worker threads');
      expect(outcome(summary, 'scan.pdf')).toMatchObject({ status: 'added', pages: 2 });
      expect(outcome(summary, 'mixed.pdf')).toMatchObject({ status: 'added', pages: 2 });

      const inspects = await evident.search.search('harbour authority inspects vessel', reader, { channels: ['bm25'] });
      expect(inspects.results[0]).toMatchObject({ chunk: { docId: 'scan.pdf', page: 1 } });
      expect(inspects.results[0]?.chunk.text).toContain('harbour authority inspects every vessel');

      const dredging = await evident.search.search('dredging schedule October tide', reader, { channels: ['bm25'] });
      expect(dredging.results[0]).toMatchObject({ chunk: { docId: 'scan.pdf', page: 2 } });
      const ferry = await evident.search.search('ferry tickets eastern gate', reader, { channels: ['bm25'] });
      expect(ferry.results[0]).toMatchObject({ chunk: { docId: 'mixed.pdf', page: 2 } });
      expect(ferry.results[0]?.chunk.text).toContain('Ferry tickets are sold at the eastern gate');

      // The mixed PDF's typed page is read from its text layer, on page 1.
      const typed = await evident.search.search('quarterly report port council', reader, { channels: ['bm25'] });
      expect(typed.results[0]).toMatchObject({ chunk: { docId: 'mixed.pdf', page: 1 } });
      expect(await ocrTempDirs()).toEqual([]);
    } finally {
      await evident.close();
    }
  }, 120_000);

  it('with OCR off, ingests the text pages only, and a scan alone fails as empty', async () => {
    const { evident, summary } = await ingest(docs, { workers: 0, ocr: { enabled: false } }, 'off');
    try {
      expect(outcome(summary, 'mixed.pdf')).toMatchObject({ status: 'added', pages: 2 });
      expect(outcome(summary, 'scan.pdf')).toMatchObject({ status: 'failed', error: { code: 'file_empty' } });
      const dredging = await evident.search.search('dredging schedule October', reader, { channels: ['bm25'] });
      expect(dredging.results).toEqual([]);
    } finally {
      await evident.close();
    }
  }, 60_000);

  it('stops a tool that overruns ingest.ocr.timeoutMs: the file fails with ocr_timeout and its temp files are removed', async () => {
    const { evident, summary } = await ingest(docs, { workers: 0, ocr: { timeoutMs: 1 } }, 'timeout');
    try {
      const failed = outcome(summary, 'scan.pdf');
      expect(failed).toMatchObject({ status: 'failed', error: { code: 'ocr_timeout' } });
      expect(failed?.error?.message).toContain('ingest.ocr.timeoutMs (1 ms) on page 1');
      expect(failed?.error?.message).toContain('Raise ingest.ocr.timeoutMs');
      expect(await ocrTempDirs()).toEqual([]);
    } finally {
      await evident.close();
    }
  }, 60_000);

  it('without tesseract and pdftoppm on PATH, says per file which page needs them; a blank page needs nothing', async () => {
    const dir = join(root, 'no-tools');
    await mkdir(dir);
    await writeFile(join(dir, 'scan.pdf'), await readFile(join(docs, 'scan.pdf')));
    await writeFile(join(dir, 'mixed.pdf'), await readFile(join(docs, 'mixed.pdf')));
    await writeFile(join(dir, 'blank-page.pdf'), buildPdf([[{ text: 'A report with an empty last page.' }], []]));
    const path = process.env.PATH;
    process.env.PATH = join(root, 'empty-bin');
    try {
      const { evident, summary } = await ingest(dir, { workers: 0 }, 'no-tools');
      await evident.close();
      expect(outcome(summary, 'scan.pdf')).toMatchObject({
        status: 'failed',
        error: {
          code: 'ocr_unavailable',
          message: expect.stringContaining(
            'In scan.pdf, pages 1 and 2 have no text; install tesseract-ocr and poppler-utils to read them.',
          ),
        },
      });
      expect(outcome(summary, 'mixed.pdf')?.error?.message).toContain(
        'In mixed.pdf, page 2 has no text; install tesseract-ocr and poppler-utils to read it.',
      );
      expect(outcome(summary, 'mixed.pdf')?.error?.message).toContain('ingest.ocr.enabled: false');
      expect(outcome(summary, 'blank-page.pdf')).toMatchObject({ status: 'added', pages: 2 });
    } finally {
      process.env.PATH = path;
    }
  }, 60_000);

  it('refuses a language that is not installed, naming its package', async () => {
    const { evident, summary } = await ingest(docs, { workers: 0, ocr: { languages: ['eng', 'fra'] } }, 'fra');
    await evident.close();
    expect(outcome(summary, 'scan.pdf')?.error).toMatchObject({
      code: 'ocr_unavailable',
      message: expect.stringContaining('the OCR language fra is not installed'),
    });
    expect(outcome(summary, 'scan.pdf')?.error?.message).toContain('apt-get install tesseract-ocr-fra');
  }, 60_000);
});

describeWith(ocrTools(), 'scans with a line of text set over them', () => {
  const STAMP = 'Scanned 2026-12-05 14:02, page 2 of 2';
  let dir: string;
  beforeAll(async () => {
    dir = join(root, 'stamped');
    await mkdir(dir);
    const page2 = await scan(buildPdf([ENGLISH_2.map((text) => ({ text, size: 14 }))]), 'stamped-2');
    await writeFile(join(dir, 'stamped.pdf'), buildImagePdf([{ text: TYPED }, { png: page2, dpi: DPI, stamp: STAMP }]));
    // A title over a page-sized picture that holds no text (a slide's background): OCR reads nothing of the title,
    // which is set in invisible text here so that it cannot, and the title as typed must stay.
    const background = await scan(buildPdf([[]]), 'background');
    await writeFile(
      join(dir, 'slide.pdf'),
      buildImagePdf([{ png: background, dpi: DPI, stamp: 'Harbour dues for the winter season', hiddenStamp: true }]),
    );
    // A short cover page with a small picture (a logo) is text, not a scan.
    const logo = await scan(buildPdf([[{ text: 'Port', size: 40 }]]), 'logo');
    await writeFile(
      join(dir, 'cover.pdf'),
      buildImagePdf([{ text: ['Annual report of the port council'], logo }, { text: ENGLISH_3 }]),
    );
  }, 60_000);

  it('reads a scan whose text layer is only a stamp, in place of the stamp; a short page with a logo keeps its text', async () => {
    const { evident, summary } = await ingest(dir, { workers: 0, ocr: { dpi: DPI } }, 'stamped');
    try {
      expect(outcome(summary, 'stamped.pdf')).toMatchObject({ status: 'added', pages: 2 });
      const dredging = await evident.search.search('dredging schedule October tide', reader, { channels: ['bm25'] });
      expect(dredging.results[0]?.chunk).toMatchObject({ docId: 'stamped.pdf', page: 2 });
      expect(dredging.results[0]?.chunk.text).toContain('The dredging schedule moves to October');
      expect(outcome(summary, 'slide.pdf'), JSON.stringify(outcome(summary, 'slide.pdf')?.error)).toMatchObject({
        status: 'added',
        pages: 1,
      });
      const dues = await evident.search.search('harbour dues winter season', reader, { channels: ['bm25'] });
      expect(dues.results[0]?.chunk).toMatchObject({ docId: 'slide.pdf', text: 'Harbour dues for the winter season' });
      const cover = await evident.search.search('annual report port council', reader, { channels: ['bm25'] });
      expect(cover.results[0]?.chunk).toMatchObject({ docId: 'cover.pdf', page: 1 });
      expect(cover.results[0]?.chunk.text).toContain('Annual report of the port council');
    } finally {
      await evident.close();
    }
  }, 120_000);

  it('without the tools, such a page keeps its stamp and the file does not fail for it', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(root, 'empty-bin');
    try {
      const { evident, summary } = await ingest(dir, { workers: 0 }, 'stamped-no-tools');
      try {
        expect(outcome(summary, 'stamped.pdf')).toMatchObject({ status: 'added', pages: 2 });
        const stamp = await evident.search.search('scanned page 2 of 2', reader, { channels: ['bm25'] });
        expect(stamp.results[0]?.chunk.text).toContain(STAMP);
        const dredging = await evident.search.search('dredging schedule', reader, { channels: ['bm25'] });
        expect(dredging.results).toEqual([]);
      } finally {
        await evident.close();
      }
    } finally {
      process.env.PATH = path;
    }
  }, 60_000);
});

describeWith(ocrTools(), 'scanned Chinese PDFs through OCR', () => {
  describeWith(chromiumBrowser(), 'printed by Chromium', (chromium) => {
    describeWith(chineseFont(), 'with a Chinese font', () => {
      it('reads Simplified Chinese with ingest.ocr.languages, without spaces between characters, on its page', async () => {
        const dir = join(root, 'zh');
        await mkdir(dir);
        const png = await chineseScan(chromium);
        await writeFile(join(dir, 'zh-scan.pdf'), buildImagePdf([{ text: COVER }, { png, dpi: DPI }]));
        expect(COVER.join(' ').length).toBeGreaterThan(160);
        expect(COVER.join(' ').length).toBeLessThan(200);
        // English and Chinese together: tesseract then puts spaces between Chinese words, which the loader removes.
        const { evident, summary } = await ingest(
          dir,
          { workers: 0, ocr: { languages: ['eng', 'chi_sim'], dpi: DPI } },
          'zh',
        );
        try {
          expect(outcome(summary, 'zh-scan.pdf')).toMatchObject({ status: 'added', pages: 2 });
          const found = await evident.search.search('光学字符识别', reader, { channels: ['bm25'] });
          expect(found.results[0]).toMatchObject({ chunk: { docId: 'zh-scan.pdf', page: 2 } });
          expect(found.results[0]?.chunk.text).toContain('光学字符识别把扫描的页面变成可以搜索的');
          expect(found.results[0]?.chunk.text).toContain('检索增强生成需要每一页的证据');
          const harbour = await evident.search.search('港口管理局', reader, { channels: ['bm25'] });
          expect(harbour.results[0]?.chunk.text).toContain('港口管理局每天检查进出港的船只');
        } finally {
          await evident.close();
        }
      }, 120_000);
    });
  });
});
