import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OcrConfig } from '../../config/ocr-schema.ts';
import type { Block } from '../../domain/index.ts';
import { IngestError, IngestLimitError } from '../../errors/index.ts';
import { requireOcrTools } from './ocr-availability.ts';
import { ocrTextBlocks } from './ocr-text-blocks.ts';
import { pagesHave } from './page-list.ts';
import { runTool, type ToolFailure } from './run-tool.ts';
import { MAX_PAGE_TEXT_BYTES, runTesseract } from './tesseract.ts';
import type { ScannedPage } from './scanned-pages.ts';

export interface OcrRequest {
  /** The PDF as it was read. */
  bytes: Buffer;
  /** The file's name, for messages. */
  name: string;
  pages: readonly ScannedPage[];
  config: OcrConfig;
  /** Where the tools are looked up (`PATH`); the process's environment by default. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Reads the scanned pages of a PDF with `pdftoppm` and `tesseract`, one page at a time (each a bounded child process,
 * so the thread stays free for other documents): the blocks of each page, carrying their page. Without the tools,
 * the file fails and says which pages need what; it is never stored as if those pages were empty.
 */
export async function ocrPages(request: OcrRequest): Promise<Map<number, Block[]>> {
  const { pages, config, name } = request;
  const read = new Map<number, Block[]>();
  if (pages.length === 0 || !config.enabled) return read;
  if (pages.length > config.maxPages) {
    throw new IngestLimitError(name, `has ${pages.length.toLocaleString('en-US')} scanned pages`, {
      setting: 'ingest.ocr.maxPages',
      env: undefined,
      limit: `${config.maxPages.toLocaleString('en-US')} pages`,
    });
  }
  const env = request.env ?? process.env;
  const numbers = pages.map((page) => page.page);
  await requireOcrTools(
    {
      subject: `In ${name}, ${pagesHave(numbers)} no text`,
      them: numbers.length === 1 ? 'it' : 'them',
      orElse: 'set ingest.ocr.enabled: false to ingest its text pages only',
      details: { pages: numbers },
    },
    ['tesseract', 'pdftoppm'],
    config,
    env,
  );
  // A private directory (mode 0700) that only this call uses, removed whatever happens.
  const dir = await mkdtemp(join(tmpdir(), 'evident-ocr-'));
  try {
    const pdfPath = join(dir, 'in.pdf');
    await writeFile(pdfPath, request.bytes, { mode: 0o600 });
    for (const page of pages)
      read.set(page.page, ocrTextBlocks(await ocrPage(pdfPath, dir, page, request, env), page.page));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return read;
}

async function ocrPage(
  pdfPath: string,
  dir: string,
  page: ScannedPage,
  request: OcrRequest,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const { config } = request;
  const run = { timeoutMs: config.timeoutMs, maxOutputBytes: MAX_PAGE_TEXT_BYTES, env, cwd: dir };
  // The image stays within maxPagePixels: a poster-sized page is rendered coarser, not larger.
  const inches = (page.width / 72) * (page.height / 72);
  const dpi = Math.max(1, Math.min(config.dpi, Math.floor(Math.sqrt(config.maxPagePixels / Math.max(inches, 1e-6)))));
  const prefix = join(dir, `page-${page.page}`);
  const n = String(page.page);
  const rendered = await runTool(
    'pdftoppm',
    ['-f', n, '-l', n, '-r', String(dpi), '-gray', '-png', '-singlefile', pdfPath, prefix],
    run,
  );
  if (!rendered.ok) throw toolError(rendered.failure, 'pdftoppm', page.page, request);
  const image = `${prefix}.png`;
  try {
    const ocr = await runTesseract(image, config, env, dir);
    if (!ocr.ok) throw toolError(ocr.failure, 'tesseract', page.page, request);
    return ocr.stdout;
  } finally {
    await rm(image, { force: true });
  }
}

function toolError(failure: ToolFailure, tool: string, page: number, request: OcrRequest): IngestError {
  const { name, config } = request;
  const details = { page, tool };
  switch (failure.kind) {
    case 'missing':
      return new IngestError(
        'ocr_unavailable',
        `In ${name}, page ${page} has no text; install ${tool === 'tesseract' ? 'tesseract-ocr' : 'poppler-utils'} to read it.`,
        {
          hint: 'Install the OCR tools and ingest it again, or set ingest.ocr.enabled: false to ingest its text pages only.',
          details,
        },
      );
    case 'timeout':
      return new IngestError(
        'ocr_timeout',
        `In ${name}, ${tool} ran longer than ingest.ocr.timeoutMs (${config.timeoutMs.toLocaleString('en-US')} ms) on page ${page}.`,
        {
          hint: 'Raise ingest.ocr.timeoutMs, or lower ingest.ocr.dpi, and ingest it again.',
          details,
        },
      );
    case 'output_too_large':
      return new IngestError(
        'ocr_failed',
        `In ${name}, ${tool} wrote more than ${MAX_PAGE_TEXT_BYTES / 1024 / 1024} MiB for page ${page}.`,
        {
          hint: 'The page is not a readable scan; remove it or set ingest.ocr.enabled: false.',
          details,
        },
      );
    case 'failed':
      return new IngestError('ocr_failed', `In ${name}, ${tool} could not read page ${page} (${failure.message}).`, {
        hint: 'Check that the page opens in a PDF viewer; re-scan or re-export it, or set ingest.ocr.enabled: false.',
        details,
      });
  }
}
