/**
 * PDF reading speed: the PDF loader (text, reading order, tables, scripts) on the BERT paper (../shared, skipped with a
 * line when absent) and on a 200-page two-column report this bench builds (prose in both columns, a table every fifth
 * page), median of `--runs` warm runs after one cold run, in pages per second.
 *
 *   node --import tsx bench/ingest/pdf-speed.ts [--runs 5] [--pages 200]
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatTable } from '../../src/format/format-table.ts';
import { pdfLoader } from '../../src/ingest/loaders/pdf-loader.ts';
import { buildPdf, pdfTableLines, type PdfLine } from '../../src/testing/pdf-builder.ts';
import { describeEnvironment } from '../environment.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../..');
const { values: flags } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, pages: { type: 'string', default: '200' } },
});
const runs = Number(flags.runs);
const WORDS = 'the pump report lists every inspection of the housing seals and their costs over the quarter'.split(' ');

/** One page: a heading, two columns of 40 lines each, and on every fifth page a table in the right column. */
function reportPage(number: number): PdfLine[] {
  const line = (column: number, index: number): string =>
    Array.from({ length: 7 }, (_, k) => WORDS[(number * 7 + column * 3 + index + k) % WORDS.length]).join(' ');
  const lines: PdfLine[] = [{ text: `Section ${number}: inspections and costs`, x: 72, y: 750, size: 14 }];
  for (let index = 0; index < 40; index += 1) {
    lines.push({ text: line(0, index), x: 72, y: 720 - index * 14 });
    if (number % 5 !== 0 || index >= 12) lines.push({ text: line(1, index), x: 320, y: 720 - index * 14 });
  }
  if (number % 5 === 0) {
    lines.push({ text: `Table ${number / 5}: Seal costs by site`, x: 320, y: 560 });
    lines.push(
      ...pdfTableLines(
        [
          ['Site', 'Seals', 'Cost'],
          ...Array.from({ length: 6 }, (_, r) => [`Site ${r + 1}`, String(10 + r), `${120 + r * 7}.5`]),
        ],
        { columns: [320, 420, 480], top: 720 },
      ),
    );
  }
  return lines;
}

async function pagesPerSecond(
  bytes: Buffer,
  path: string,
): Promise<{ pages: number; tables: number; cold: number; warm: number }> {
  const time = async () => {
    const started = performance.now();
    const loaded = await pdfLoader.load(bytes, path);
    return { ms: performance.now() - started, pages: loaded.pageCount ?? 0, tables: loaded.tables?.length ?? 0 };
  };
  const cold = await time();
  const warm: number[] = [];
  for (let run = 0; run < runs; run += 1) warm.push((await time()).ms);
  warm.sort((a, b) => a - b);
  const median = warm[Math.floor(warm.length / 2)]!;
  return {
    pages: cold.pages,
    tables: cold.tables,
    cold: cold.pages / (cold.ms / 1000),
    warm: cold.pages / (median / 1000),
  };
}

const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const rows: (string | number)[][] = [];
const bert = resolve(repo, '../shared/datasets/pdfs/bert-1810.04805.pdf');
if (existsSync(bert)) {
  const result = await pagesPerSecond(readFileSync(bert), bert);
  rows.push(['BERT paper', result.pages, result.tables, result.cold.toFixed(1), result.warm.toFixed(1)]);
} else process.stderr.write(`skipped the BERT paper: ${bert} is absent (it ships in ../shared/datasets)\n`);
const report = buildPdf(Array.from({ length: Number(flags.pages) }, (_, index) => reportPage(index + 1)));
const built = await pagesPerSecond(report, 'report.pdf');
rows.push([
  `built report (${flags.pages} pages)`,
  built.pages,
  built.tables,
  built.cold.toFixed(1),
  built.warm.toFixed(1),
]);
const environment = describeEnvironment('bench/ingest/pdf-speed.ts', started, loadBefore);
process.stdout.write(
  `PDF reading speed — commit ${environment.commit}, load ${environment.loadBefore.toFixed(2)} → ${environment.loadAfter.toFixed(2)} (${environment.nproc} CPUs), ${runs} warm runs\n\n`,
);
process.stdout.write(`${formatTable(['PDF', 'pages', 'tables', 'pages/s cold', 'pages/s warm (median)'], rows)}\n`);
