/**
 * What OCR of images costs per page, through the loaders: a PNG of a letter page at 150 and 300 dpi, a 10-page TIFF
 * fax at 150 dpi, a DOCX with one scanned page as a picture against the same DOCX without it, and a DOCX of text with
 * small pictures with OCR on and off (what a document that needs no OCR pays for it). Median of `--runs` runs, each
 * page read by one tesseract run on one thread. Needs pdftoppm and tesseract (they render and read the pages).
 *
 *   node --import tsx bench/ingest/ocr-images.ts [--runs 3]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatTable } from '../../src/format/format-table.ts';
import { INGEST_DEFAULTS } from '../../src/ingest/limits.ts';
import type { Loader } from '../../src/ingest/loaders/index.ts';
import { loaderFor } from '../../src/ingest/loaders/index.ts';
import { buildDocx } from '../../src/testing/docx-builder.ts';
import { buildPdf } from '../../src/testing/pdf-builder.ts';
import { whitePng } from '../../src/testing/png-header.ts';
import { buildTiff, readPgm } from '../../src/testing/tiff-builder.ts';
import { describeEnvironment } from '../environment.ts';

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(flags.runs);
const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const dir = mkdtempSync(join(tmpdir(), 'evident-bench-ocr-'));

const LINES = Array.from(
  { length: 30 },
  (_, i) => `Line ${i + 1} of the harbour report: the pilot boat leaves at dawn with two crew.`,
);

/** A letter page of 30 lines of text rendered as a scanner would: `-png` or none (PGM pixels, for the TIFF). */
function render(dpi: number, format: string[]): Buffer {
  const pdf = join(dir, 'page.pdf');
  writeFileSync(pdf, buildPdf([LINES.map((text) => ({ text, size: 11 }))]));
  execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', ...format, pdf, join(dir, `page-${dpi}`)]);
  return readFileSync(join(dir, `page-${dpi}.${format.length > 0 ? 'png' : 'pgm'}`));
}

async function median(loader: Loader, bytes: Buffer, name: string, limits = INGEST_DEFAULTS): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const at = performance.now();
    await loader.load(bytes, `/bench/${name}`, limits);
    times.push(performance.now() - at);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
}

const scan150 = render(150, ['-png']);
const scan300 = render(300, ['-png']);
const fax = buildTiff(Array.from({ length: 10 }, () => readPgm(render(150, []))));
const text = LINES.slice(0, 10);
const withScan = buildDocx([...text, { picture: scan150 }]);
const withoutScan = buildDocx(text);
const withLogos = buildDocx([...text, { picture: whitePng(300, 100) }, { picture: whitePng(120, 120) }]);
const off = { ...INGEST_DEFAULTS, ocr: { ...INGEST_DEFAULTS.ocr, enabled: false } };
const image = loaderFor('a.png')!;
const docx = loaderFor('a.docx')!;

const ms = (value: number) => value.toFixed(0);
const rows: string[][] = [];
rows.push(['PNG letter page, 150 dpi (2.1 Mpx)', '1', ms(await median(image, scan150, 'scan150.png'))]);
rows.push(['PNG letter page, 300 dpi (8.4 Mpx)', '1', ms(await median(image, scan300, 'scan300.png'))]);
const faxMs = await median(image, fax, 'fax.tif');
rows.push(['TIFF fax, 10 pages at 150 dpi', '10', `${ms(faxMs)} (${ms(faxMs / 10)} a page)`]);
const scanned = await median(docx, withScan, 'with-scan.docx');
const plain = await median(docx, withoutScan, 'without-scan.docx');
rows.push([
  'DOCX + a scanned page (150 dpi) as a picture',
  '1',
  `${ms(scanned)} (${ms(scanned - plain)} for the picture)`,
]);
rows.push(['DOCX of text and two small pictures, OCR on', '0', ms(await median(docx, withLogos, 'logos.docx'))]);
rows.push(['DOCX of text and two small pictures, OCR off', '0', ms(await median(docx, withLogos, 'logos.docx', off))]);
rmSync(dir, { recursive: true, force: true });

const environment = describeEnvironment('bench/ingest/ocr-images.ts', started, loadBefore);
process.stdout.write(
  `OCR of images — commit ${environment.commit}, load ${environment.loadBefore.toFixed(2)} → ${environment.loadAfter.toFixed(2)} (${environment.nproc} CPUs), ${runs} runs\n\n`,
);
process.stdout.write(`${formatTable(['file', 'pages read by OCR', 'ms (median)'], rows)}\n`);
