/**
 * Precision and recall of PDF table extraction against hand-annotated papers (bench/ingest/pdf-table-gold/*.json:
 * every table of a paper, by page and caption label, with its body cells as printed). Each PDF is read by the PDF
 * loader as ingestion reads it; a found table matches the annotated one on its page with its label. Printed per
 * paper: tables found / annotated / matched (whole-table precision and recall), and body cells (a cell matches when
 * its row and column hold the same value; numbers compare as numbers, "-" and empty cells are not scored). Papers
 * whose PDF is absent (no ../shared) are skipped with a line.
 *
 *   npm run bench:pdf-tables -- [--gold bench/ingest/pdf-table-gold] [--json]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { TableData } from '../../src/domain/index.ts';
import { formatTable } from '../../src/format/format-table.ts';
import { pdfLoader } from '../../src/ingest/loaders/pdf-loader.ts';
import { describeEnvironment } from '../environment.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../..');
const { values: flags } = parseArgs({
  options: {
    gold: { type: 'string', default: join(repo, 'bench/ingest/pdf-table-gold') },
    json: { type: 'boolean', default: false },
  },
});

interface GoldTable {
  page: number;
  label: string;
  rows: string[][];
}
interface Gold {
  document: string;
  /** The PDF, relative to the repository. */
  source: string;
  tables: GoldTable[];
}

/** `80.6`, `80.60` and `80.6%` are one value; `-` is none. */
const cellKey = (value: unknown): string => {
  const text = String(value ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '' || /^[-–—]$/.test(text)) return '';
  const number = Number(text.replace(/,/g, '').replace(/%$/, ''));
  return Number.isFinite(number) && /\d/.test(text) ? String(number) : text;
};

/** The body cells of a table as `row:column=value` keys, the found table's section column left out. */
function cells(rows: readonly (readonly unknown[])[], skipFirst = false): Set<string> {
  const out = new Set<string>();
  rows.forEach((row, r) =>
    row.slice(skipFirst ? 1 : 0).forEach((value, c) => {
      const key = cellKey(value);
      if (key) out.add(`${r}:${c}=${key}`);
    }),
  );
  return out;
}

function pageAndLabel(table: TableData): { page: number; label: string } {
  const match = /\/ page (\d+) \/ (.+)$/.exec(table.title);
  return { page: Number(match?.[1] ?? 0), label: match?.[2] ?? table.title };
}

const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const results = [];
for (const file of readdirSync(flags.gold).filter((name) => name.endsWith('.json'))) {
  const gold = JSON.parse(readFileSync(join(flags.gold, file), 'utf8')) as Gold;
  const path = resolve(repo, gold.source);
  if (!existsSync(path)) {
    process.stderr.write(`skipped ${gold.document}: ${path} is absent (it ships in ../shared/datasets)\n`);
    continue;
  }
  const loaded = await pdfLoader.load(readFileSync(path), path);
  const found = loaded.tables ?? [];
  let matched = 0;
  let foundCells = 0;
  let goldCells = 0;
  let matchedCells = 0;
  const missed: string[] = [];
  const extra: string[] = [];
  for (const table of found) {
    const { page, label } = pageAndLabel(table);
    const mine = cells(table.rows, table.columns[0]?.name === 'Section');
    foundCells += mine.size;
    const twin = gold.tables.find((candidate) => candidate.page === page && candidate.label === label);
    if (!twin) {
      extra.push(`p${page} ${label}`);
      continue;
    }
    matched += 1;
    const theirs = cells(twin.rows);
    for (const key of mine) if (theirs.has(key)) matchedCells += 1;
  }
  for (const table of gold.tables) {
    goldCells += cells(table.rows).size;
    if (
      !found.some(
        (candidate) => pageAndLabel(candidate).page === table.page && pageAndLabel(candidate).label === table.label,
      )
    )
      missed.push(`p${table.page} ${table.label}`);
  }
  results.push({
    document: gold.document,
    tables: { found: found.length, annotated: gold.tables.length, matched },
    tablePrecision: found.length ? matched / found.length : 1,
    tableRecall: gold.tables.length ? matched / gold.tables.length : undefined,
    cells: { found: foundCells, annotated: goldCells, matched: matchedCells },
    cellPrecision: foundCells ? matchedCells / foundCells : 1,
    cellRecall: goldCells ? matchedCells / goldCells : 1,
    missed,
    extra,
  });
}

const environment = describeEnvironment('bench/ingest/pdf-tables.ts', started, loadBefore);
if (flags.json) process.stdout.write(`${JSON.stringify({ environment, results }, null, 2)}\n`);
else {
  const pct = (value: number | undefined) => (value === undefined ? '–' : `${(value * 100).toFixed(1)}%`);
  process.stdout.write(
    `PDF tables against annotated papers — commit ${environment.commit}, ${environment.date}, ${environment.totalSeconds.toFixed(1)} s\n\n`,
  );
  process.stdout.write(
    `${formatTable(
      [
        'document',
        'tables found / annotated',
        'table precision',
        'table recall',
        'cells found / annotated',
        'cell precision',
        'cell recall',
        'missed',
        'not in the paper',
      ],
      results.map((result) => [
        result.document,
        `${result.tables.found} / ${result.tables.annotated}`,
        pct(result.tablePrecision),
        pct(result.tableRecall),
        `${result.cells.found} / ${result.cells.annotated}`,
        pct(result.cellPrecision),
        pct(result.cellRecall),
        result.missed.join(', ') || '–',
        result.extra.join(', ') || '–',
      ]),
    )}\n`,
  );
}
