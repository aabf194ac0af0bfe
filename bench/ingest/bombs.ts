/**
 * What hostile and maximal files cost a loader at the default `ingest.*` limits: wall time and peak RSS of each case,
 * each in a fresh process. The refused cases show how fast a bomb fails; the `at limit` cases show the most a file
 * the limits still admit can cost (that is what the defaults are chosen against).
 *
 *   node --import tsx bench/ingest/bombs.ts [--json out.json]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IngestError } from '../../src/errors/index.ts';
import { loaderFor } from '../../src/ingest/loaders/index.ts';
import { buildDocxFromBody } from '../../src/testing/docx-builder.ts';
import { buildOdf } from '../../src/testing/odf-builder.ts';
import { pngHeaderOnly } from '../../src/testing/png-header.ts';
import { buildTiff } from '../../src/testing/tiff-builder.ts';
import { buildPptx } from '../../src/testing/pptx-builder.ts';
import { buildXlsx, numberRows } from '../../src/testing/xlsx-builder.ts';
import { writeZip } from '../../src/testing/zip-writer.ts';
import { describeEnvironment } from '../environment.ts';

const TEXT_RUN = '<w:p><w:r><w:t>Clause text of a long contract.</w:t></w:r></w:p>';
const SLIDE_TEXT = '<a:p><a:r><a:t>Point made on a slide of a long deck.</a:t></a:r></a:p>';
const shapeOf = (paragraphs: string) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="B"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody>${paragraphs}</p:txBody></p:sp>`;
const odsRow = (cells: string, attrs = '') => `<table:table-row${attrs}>${cells}</table:table-row>`;
const ODS_CELL =
  '<table:table-cell office:value-type="float" office:value="1250.5"><text:p>1,250.50</text:p></table:table-cell>';

/** Each case: the file name (its extension picks the loader) and how to build its bytes. */
const CASES: Record<string, { file: string; build: () => Buffer }> = {
  'xlsx declares A1:XFD1048576': {
    file: 'range.xlsx',
    build: () =>
      buildXlsx([{ name: 'S', dimension: 'A1:XFD1048576', sheetData: '<row r="1"><c r="A1"><v>1</v></c></row>' }]),
  },
  'xlsx 160,000 rows (at limit)': {
    file: 'rows.xlsx',
    build: () => buildXlsx([{ name: 'S', sheetData: numberRows(160_000) }]),
  },
  'docx 1,000,000 empty paragraphs': { file: 'empty.docx', build: () => buildDocxFromBody('<w:p/>'.repeat(1_000_000)) },
  'docx 499,000 empty paragraphs (at limit)': {
    file: 'empty-limit.docx',
    build: () => buildDocxFromBody('<w:p/>'.repeat(499_000)),
  },
  'docx 166,000 text paragraphs (at limit)': {
    file: 'text-limit.docx',
    build: () => buildDocxFromBody(TEXT_RUN.repeat(166_000)),
  },
  'docx 21 M characters of text': {
    file: 'text.docx',
    build: () =>
      buildDocxFromBody(
        `<w:p><w:r><w:t>${'Clause text of a long contract. '.repeat(700)}</w:t></w:r></w:p>`.repeat(1_000),
      ),
  },
  'docx entry declares 100 B, holds 300 MiB': {
    file: 'lying.docx',
    build: () =>
      writeZip([{ path: 'word/document.xml', data: Buffer.alloc(300 * 1024 * 1024, 0x20), declaredSize: 100 }]),
  },
  'pptx 1,000,000 empty paragraphs': {
    file: 'empty.pptx',
    build: () => buildPptx([{ shapesXml: shapeOf('<a:p/>'.repeat(1_000_000)) }]),
  },
  'pptx 160,000 text paragraphs on 400 slides (at limit)': {
    file: 'text-limit.pptx',
    build: () => buildPptx(Array.from({ length: 400 }, () => ({ shapesXml: shapeOf(SLIDE_TEXT.repeat(400)) }))),
  },
  'ods row of data repeated 1,000,000,000 times': {
    file: 'repeated.ods',
    build: () =>
      buildOdf(
        'spreadsheet',
        `<table:table table:name="S">${odsRow(ODS_CELL, ' table:number-rows-repeated="1000000000"')}</table:table>`,
      ),
  },
  'ods 95,000 rows of 2 cells (at limit)': {
    file: 'rows-limit.ods',
    build: () =>
      buildOdf(
        'spreadsheet',
        `<table:table table:name="S">${odsRow(ODS_CELL + ODS_CELL).repeat(95_000)}</table:table>`,
      ),
  },
  'ods 160,000 rows of one cell repeated 6 times': {
    file: 'repeats.ods',
    build: () =>
      buildOdf(
        'spreadsheet',
        `<table:table table:name="S">${odsRow(ODS_CELL.replace('<table:table-cell', '<table:table-cell table:number-columns-repeated="6"'), ' table:number-rows-repeated="1"').repeat(160_000)}</table:table>`,
      ),
  },
  'odt 160,000 text paragraphs (at limit)': {
    file: 'text-limit.odt',
    build: () =>
      buildOdf('text', '<text:p>Clause text of <text:span>a long</text:span> contract.</text:p>'.repeat(160_000)),
  },
  'png declares 100,000 × 100,000 pixels': { file: 'bomb.png', build: () => pngHeaderOnly(100_000, 100_000) },
  'tiff of 501 pages': {
    file: 'pages.tif',
    build: () => buildTiff(Array.from({ length: 501 }, () => ({ width: 8, height: 8, pixels: Buffer.alloc(64, 255) }))),
  },
  'html 200,000 nested <div>': { file: 'deep.html', build: () => Buffer.from(`${'<div>'.repeat(200_000)}x`) },
  'markdown heading + 200,000 blanks': {
    file: 'long.md',
    build: () => Buffer.from(`# Title${' '.repeat(200_000)}end\n`),
  },
};

interface CaseResult {
  case: string;
  fileBytes: number;
  ms: number;
  peakRssMiB: number;
  outcome: string;
}

async function runCase(name: string): Promise<CaseResult> {
  const spec = CASES[name];
  if (!spec) throw new Error(`unknown case ${JSON.stringify(name)}`);
  const bytes = spec.build();
  const loader = loaderFor(spec.file);
  if (!loader) throw new Error(`no loader for ${spec.file}`);
  const started = performance.now();
  let outcome: string;
  try {
    const doc = await loader.load(bytes, `/bench/${spec.file}`);
    outcome = `loaded: ${doc.blocks.length} blocks`;
  } catch (error) {
    outcome = IngestError.isInstance(error)
      ? `${error.code}: ${String(error.details.setting ?? error.message.slice(0, 60))}`
      : `UNTYPED ${String(error)}`;
  }
  const ms = performance.now() - started;
  return { case: name, fileBytes: bytes.length, ms, peakRssMiB: process.resourceUsage().maxRSS / 1024, outcome };
}

const { values: flags } = parseArgs({ options: { case: { type: 'string' }, json: { type: 'string' } }, strict: true });

if (flags.case) {
  process.stdout.write(`${JSON.stringify(await runCase(flags.case))}\n`);
} else {
  const self = fileURLToPath(import.meta.url);
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const results: CaseResult[] = [];
  for (const name of Object.keys(CASES)) {
    const line = execFileSync(process.execPath, ['--import', 'tsx', self, '--case', name], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    const result = JSON.parse(line.trim().split('\n').at(-1) ?? '{}') as CaseResult;
    results.push(result);
    process.stderr.write(
      `${name}: ${(result.ms / 1000).toFixed(2)} s, ${result.peakRssMiB.toFixed(0)} MiB, ${result.outcome}\n`,
    );
  }
  const environment = describeEnvironment('bench/ingest/bombs.ts', started, loadBefore);
  const rows = results.map(
    (r) =>
      `| ${r.case} | ${(r.fileBytes / 1024).toFixed(1)} KiB | ${(r.ms / 1000).toFixed(2)} s | ${r.peakRssMiB.toFixed(0)} MiB | ${r.outcome} |`,
  );
  process.stdout.write(
    ['| case | file | time | peak RSS (process) | outcome |', '|---|---|---|---|---|', ...rows].join('\n') + '\n',
  );
  if (flags.json) writeFileSync(flags.json, JSON.stringify({ environment, results }, null, 2));
}
