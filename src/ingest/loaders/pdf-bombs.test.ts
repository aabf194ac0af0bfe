import { describe, expect, it } from 'vitest';
import { IngestLimitError } from '../../errors/index.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { INGEST_DEFAULTS } from '../limits.ts';
import { pdfLoader } from './pdf-loader.ts';

const MiB = 1024 * 1024;
const page = [{ text: 'Quarterly report', size: 16, bold: true }, { text: 'Revenue grew in every region.' }];

/** The load's failure, or undefined when it loaded. */
const failureOf = (load: Promise<unknown>): Promise<unknown> =>
  load.then(
    () => undefined,
    (failure: unknown) => failure,
  );

describe('PDF stream bombs', () => {
  it('refuses a small PDF whose compressed page content inflates beyond ingest.maxExpandedBytes, before pdf.js reads it', async () => {
    const bomb = buildPdf([page], { deflatePadding: 48 * MiB });
    expect(bomb.length).toBeLessThan(128 * 1024);
    const started = performance.now();
    const error = await failureOf(
      pdfLoader.load(bomb, '/in/bomb.pdf', { ...INGEST_DEFAULTS, maxExpandedBytes: 8 * MiB }),
    );
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    expect((error as IngestLimitError).details).toMatchObject({
      setting: 'ingest.maxExpandedBytes',
      env: 'EVIDENT_MAX_EXPANDED_BYTES',
    });
    expect((error as Error).message).toMatch(/bomb\.pdf inflates to more than 8\.0 MiB in its compressed streams/);
    // Counting stops at the bound: far from the time pdf.js would take to parse 48 MiB of page content.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('counts every stream of the file together, and reads a compressed PDF within the bound as before', async () => {
    const pages = Array.from({ length: 12 }, () => page);
    const spread = buildPdf(pages, { deflatePadding: 1 * MiB });
    const error = await failureOf(
      pdfLoader.load(spread, '/in/spread.pdf', { ...INGEST_DEFAULTS, maxExpandedBytes: 8 * MiB }),
    );
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    const loaded = await pdfLoader.load(buildPdf([page], { deflatePadding: 1024 }), '/in/small.pdf');
    expect(loaded.blocks.map((block) => block.text)).toContain('Revenue grew in every region.');
  });

  it('stops reading a PDF past ingest.maxDocumentSeconds, between pages', async () => {
    const pages = Array.from({ length: 5 }, () => page);
    const error = await failureOf(
      pdfLoader.load(buildPdf(pages), '/in/slow.pdf', { ...INGEST_DEFAULTS, maxDocumentSeconds: 1e-6 }),
    );
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    expect((error as IngestLimitError).details).toMatchObject({
      setting: 'ingest.maxDocumentSeconds',
      env: 'EVIDENT_MAX_DOCUMENT_SECONDS',
    });
    expect((error as Error).message).toMatch(/slow\.pdf took more than 0\.000001 s to read, by page \d of 5/);
  });
});
