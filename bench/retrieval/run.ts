/**
 * Retrieval benchmark: ingestion throughput, per-stage and end-to-end search latency, and memory, on synthetic
 * corpora of several sizes, plus ingestion of a real PDF. See bench/README.md.
 *
 *   npm run bench:retrieval -- [--sizes 10000,100000] [--queries 200] [--warmup 20] [--seed 42]
 *                              [--json out.json] [--pdf <file> | --no-pdf] [--pdf-runs 4]
 *                              [--profile-dir dir] [--keep] [--store-dir dir] [--database-url postgres://…]
 *
 * With --database-url the stores are PostgreSQL (a scratch schema per size, dropped afterwards) instead of SQLite
 * files; run once with and once without to compare the backends side by side.
 *
 * With --store-dir each size's SQLite store is built in <dir>/size-<n> and left there; a later run with the same
 * --store-dir, size and seed measures that store again instead of ingesting it anew (the report gives the ingestion
 * figures of the run that built it, and says so). Meant for sizes that take long to build (1M chunks).
 *
 * Each corpus size and the PDF run in a child process of their own, so peak memory is per size and one size's
 * garbage or caches cannot slow another.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measurePdf, type PdfResult } from './measure-pdf.ts';
import { measureSize, type SizeResult } from './measure-size.ts';
import { formatReport, type BenchReport } from './report.ts';
import { describeEnvironment } from '../environment.ts';
import { dropPostgresStore, withSchema } from '../../src/store/postgres/drop-store.ts';

const DEFAULT_PDF = resolve(fileURLToPath(import.meta.url), '../../../../shared/datasets/pdfs/bert-1810.04805.pdf');

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    seed: { type: 'string', default: '42' },
    json: { type: 'string' },
    pdf: { type: 'string', default: DEFAULT_PDF },
    'no-pdf': { type: 'boolean', default: false },
    'pdf-runs': { type: 'string', default: '4' },
    'profile-dir': { type: 'string' },
    keep: { type: 'boolean', default: false },
    'store-dir': { type: 'string' },
    'database-url': { type: 'string' },
    // Internal: run one job in this process and write its result to --result.
    child: { type: 'string' },
    result: { type: 'string' },
  },
  strict: true,
});

const positiveInt = (name: string, value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return parsed;
};

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const settings = {
  sizes: flags.sizes.split(',').map((size) => positiveInt('sizes', size.trim().replace(/_/g, ''))),
  queries: positiveInt('queries', flags.queries),
  warmup: positiveInt('warmup', flags.warmup),
  seed: positiveInt('seed', flags.seed),
  pdf: flags['no-pdf'] ? undefined : resolve(flags.pdf),
  pdfRuns: positiveInt('pdf-runs', flags['pdf-runs']),
  profileDir: flags['profile-dir'] ? resolve(flags['profile-dir']) : undefined,
  storeDir: flags['store-dir'] ? resolve(flags['store-dir']) : undefined,
};
if (settings.storeDir && flags['database-url'])
  throw new Error('--store-dir keeps SQLite stores; it cannot be combined with --database-url');

/** Runs one job (`size:<n>` or `pdf`) in this process. */
async function runChild(job: string, resultFile: string): Promise<void> {
  const kept = settings.storeDir !== undefined && job !== 'pdf';
  const workDir = kept
    ? join(settings.storeDir as string, job.replace(/^size:/, 'size-'))
    : mkdtempSync(join(tmpdir(), 'evident-bench-'));
  if (kept) mkdirSync(workDir, { recursive: true });
  const databaseUrl = flags['database-url']
    ? withSchema(flags['database-url'], `evident_bench_${job.replace(/\W/g, '_')}_${process.pid}`)
    : undefined;
  try {
    let result: SizeResult | PdfResult;
    if (job === 'pdf') {
      if (!settings.pdf) throw new Error('no PDF given');
      result = await measurePdf({ path: settings.pdf, runs: settings.pdfRuns, workDir, log });
    } else {
      const chunks = positiveInt('sizes', job.replace(/^size:/, ''));
      result = await measureSize({
        chunks,
        queries: settings.queries,
        warmup: settings.warmup,
        seed: settings.seed,
        workDir,
        ...(databaseUrl ? { databaseUrl } : {}),
        ...(settings.profileDir ? { profileDir: settings.profileDir } : {}),
        reuse: kept,
        log,
      });
    }
    writeFileSync(resultFile, JSON.stringify(result));
  } finally {
    if (kept) log(`  store left in ${workDir}`);
    else if (flags.keep) log(`  kept ${workDir}${databaseUrl ? ` and ${databaseUrl}` : ''}`);
    else {
      rmSync(workDir, { recursive: true, force: true });
      if (databaseUrl) await dropPostgresStore(databaseUrl);
    }
  }
}

/** Runs `job` in a child process with this process's Node flags (`--expose-gc --import tsx`, `--cpu-prof`, …). */
function spawnJob<T>(job: string, resultDir: string): Promise<T> {
  const resultFile = join(resultDir, `${job.replace(/\W/g, '-')}.json`);
  const script = fileURLToPath(import.meta.url);
  const args = [...process.execArgv, script, ...process.argv.slice(2), '--child', job, '--result', resultFile];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      if (code === 0) done(JSON.parse(readFileSync(resultFile, 'utf8')) as T);
      else fail(new Error(`${job} exited with ${signal ?? `code ${code}`}`));
    });
  });
}

async function main(): Promise<void> {
  if (flags.child) {
    if (!flags.result) throw new Error('--child needs --result');
    await runChild(flags.child, flags.result);
    return;
  }
  if (!(globalThis as { gc?: unknown }).gc)
    log('note: run with --expose-gc (npm run bench:retrieval does) for exact heap numbers');

  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const resultDir = mkdtempSync(join(tmpdir(), 'evident-bench-results-'));
  const errors: string[] = [];
  const sizes: SizeResult[] = [];
  let pdf: PdfResult | undefined;
  try {
    for (const size of settings.sizes) {
      log(`size ${size} chunks`);
      try {
        sizes.push(await spawnJob<SizeResult>(`size:${size}`, resultDir));
      } catch (error) {
        errors.push(`size ${size}: ${(error as Error).message}`);
      }
    }
    if (settings.pdf) {
      log(`pdf ${settings.pdf}`);
      try {
        pdf = await spawnJob<PdfResult>('pdf', resultDir);
      } catch (error) {
        errors.push(`pdf: ${(error as Error).message}`);
      }
    }
  } finally {
    rmSync(resultDir, { recursive: true, force: true });
  }

  const report: BenchReport = {
    environment: describeEnvironment('bench/retrieval/run.ts', started, loadBefore),
    settings: {
      backend: flags['database-url'] ? 'postgres' : 'sqlite',
      sizes: settings.sizes,
      queries: settings.queries,
      warmup: settings.warmup,
      seed: settings.seed,
      pdf: settings.pdf,
    },
    targets: { hybridP50Ms: 20, hybridAtChunks: 100_000, ingestChunksPerSec: 1_000 },
    sizes,
    pdf,
    errors,
  };
  process.stdout.write(`${formatReport(report)}\n`);
  if (flags.json) {
    writeFileSync(resolve(flags.json), `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${resolve(flags.json)}`);
  }
  if (errors.length > 0) process.exitCode = 1;
}

await main();
