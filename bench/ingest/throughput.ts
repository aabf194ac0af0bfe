/**
 * Ingestion throughput: the retrieval benchmark's synthetic records (bench/retrieval/corpus.ts) ingested through the
 * composition root and `Ingestor.ingestRecords`, in calls of `--call` records as `evident ingest <folder>` makes
 * one call, once per mode, modes interleaved within each size so they share the machine's load.
 *
 *   node --import tsx bench/ingest/throughput.ts                          # 10k and 100k chunks, SQLite, both modes
 *   node --import tsx bench/ingest/throughput.ts --sizes 10000 --modes serial,pool,pool1
 *   node --import tsx bench/ingest/throughput.ts --database-url postgres://postgres@127.0.0.1:55432/postgres --modes pool
 *   node --import tsx bench/ingest/throughput.ts --beir ../shared/datasets/scifact --modes pool   # a BEIR corpus
 *
 * With `--beir <folder>` the records are that corpus's documents (as `npm run bench:keyword` ingests them: title,
 * text, all in one call) instead of the synthetic ones, and each mode's row is followed by a plain SQLite FTS5 porter
 * table built from the same documents in the same process (`src/eval/beir/fts5-baseline.ts`, in memory, one
 * transaction): the index build set beside FTS5's under the same load.
 *
 * Modes: `serial` is the single-threaded path (no workers, one transaction per document: ingestion before worker
 * threads and batches); `pool` the defaults (a worker per core, batched transactions); `poolN` N workers.
 * CPU: the whole process (every thread) and the main thread alone (Linux /proc), so what the writer costs shows apart;
 * and the seconds the process's threads were runnable but had no CPU (schedstat): when that is large, other work on
 * the machine, not the pipeline, set the wall-clock rate.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type ConfigInput } from '../../src/config/index.ts';
import { readBeirDataset } from '../../src/eval/beir/beir-dataset.ts';
import { buildFts5Baseline } from '../../src/eval/beir/fts5-baseline.ts';
import { createEvident } from '../../src/evident.ts';
import type { TextRecord } from '../../src/ingest/ingestor.ts';
import { dropPostgresStore, withSchema } from '../../src/store/postgres/drop-store.ts';
import { describeEnvironment } from '../environment.ts';
import { SyntheticCorpus } from '../retrieval/corpus.ts';
import { postgresStoreBytes } from '../store/postgres-store-size.ts';

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    modes: { type: 'string', default: 'serial,pool' },
    call: { type: 'string', default: '1000' },
    batch: { type: 'string' },
    seed: { type: 'string', default: '42' },
    'database-url': { type: 'string' },
    beir: { type: 'string' },
  },
  strict: true,
});

const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const sizes = (flags.sizes as string).split(',').map(Number);
const modes = (flags.modes as string).split(',');
const perCall = Number(flags.call);
const databaseUrl = flags['database-url'];

/** Seconds of CPU of this process's main thread (utime + stime of /proc/self/task/<pid>), or NaN off Linux. */
function mainThreadCpuSeconds(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted from the state field (3): indexes 11 and 12 here.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Per thread of this process: seconds on a CPU and seconds runnable but waiting for one (/proc/self/task/<tid>/schedstat). */
function threadTimes(): Map<string, { run: number; wait: number }> {
  const out = new Map<string, { run: number; wait: number }>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      out.set(tid, { run: (run ?? 0) / 1e9, wait: (wait ?? 0) / 1e9 });
    }
  } catch {
    // Not Linux: the column stays empty.
  }
  return out;
}

/** Seconds the threads of this process spent runnable but without a CPU between two `threadTimes()`. */
function waitedSeconds(before: Map<string, { wait: number }>, after: Map<string, { wait: number }>): number {
  let waited = 0;
  for (const [tid, times] of after) waited += times.wait - (before.get(tid)?.wait ?? 0);
  return after.size === 0 ? Number.NaN : waited;
}

function modeConfig(mode: string): ConfigInput['ingest'] {
  const batch = flags.batch ? { batchDocuments: Number(flags.batch) } : {};
  if (mode === 'serial') return { workers: 0, batchDocuments: 1 };
  if (mode === 'pool') return batch;
  const workers = /^pool(\d+)$/.exec(mode);
  if (workers) return { workers: Number(workers[1]), ...batch };
  throw new Error(`unknown mode ${mode}: serial, pool or pool<N>`);
}

/** Records of the seeded corpus up to `chunks` chunks (~1 chunk per 1,100 characters at the default chunk size). */
function recordsFor(chunks: number): TextRecord[] {
  const corpus = new SyntheticCorpus({ seed: Number(flags.seed) });
  const records: TextRecord[] = [];
  let estimate = 0;
  while (estimate < chunks) {
    const { record } = corpus.document(records.length);
    records.push(record);
    estimate += Math.max(1, Math.round(record.text.length / 1_100));
  }
  return records;
}

interface Row {
  size: number;
  mode: string;
  chunks: number;
  seconds: number;
  cpuSeconds: number;
  mainCpuSeconds: number;
  /** Seconds, summed over threads, runnable but waiting for a CPU: other work on the machine. */
  waitSeconds: number;
  load: [number, number];
  storeBytes: number;
}

async function measure(size: number, mode: string, records: readonly TextRecord[], perCall: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'evident-ingest-bench-'));
  const db = join(dir, 'bench.db');
  const url = databaseUrl ? withSchema(databaseUrl, `evident_ingest_${process.pid}_${mode}_${size}`) : undefined;
  const config = loadConfig({
    env: {},
    cwd: dir,
    flags: { db, ...(url ? { databaseUrl: url } : {}), ingest: modeConfig(mode) },
  });
  const evident = await createEvident(config);
  try {
    const load: [number, number] = [loadavg()[0] ?? 0, 0];
    const cpuBefore = process.cpuUsage();
    const mainBefore = mainThreadCpuSeconds();
    const threadsBefore = threadTimes();
    const t0 = performance.now();
    let chunks = 0;
    for (let i = 0; i < records.length; i += perCall) {
      const summary = await evident.ingestor.ingestRecords(records.slice(i, i + perCall));
      if (summary.failed > 0)
        throw new Error(`ingestion failed: ${summary.outcomes.find((o) => o.error)?.error?.message}`);
      chunks += summary.chunks;
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const mainCpuSeconds = mainThreadCpuSeconds() - mainBefore;
    // Read before the workers end, so their threads are still listed.
    const waitSeconds = waitedSeconds(threadsBefore, threadTimes());
    load[1] = loadavg()[0] ?? 0;
    await evident.ingestor.close();
    const storeBytes = url
      ? await postgresStoreBytes(url)
      : ['', '-wal'].reduce((sum, suffix) => sum + (statSync(db + suffix, { throwIfNoEntry: false })?.size ?? 0), 0);
    return {
      size,
      mode,
      chunks,
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      mainCpuSeconds,
      waitSeconds,
      load,
      storeBytes,
    };
  } finally {
    await evident.close();
    if (url) await dropPostgresStore(url);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A BEIR corpus's documents as records, and an FTS5 porter table built from them here, timed like a mode. */
async function beirRecords(folder: string): Promise<TextRecord[]> {
  const { corpus } = await readBeirDataset(folder, 'train');
  return corpus.map((doc) => ({ docId: doc.id, title: doc.title, text: doc.text, source: `beir:${doc.id}` }));
}

function fts5Row(folder: string, records: readonly TextRecord[]): Row {
  const load: [number, number] = [loadavg()[0] ?? 0, 0];
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadCpuSeconds();
  const threadsBefore = threadTimes();
  const corpus = records.map((record) => ({ id: record.docId, title: record.title, text: record.text }));
  const fts5 = buildFts5Baseline(corpus, 'fts5');
  fts5.close();
  const cpu = process.cpuUsage(cpuBefore);
  load[1] = loadavg()[0] ?? 0;
  return {
    size: records.length,
    mode: `FTS5 porter (${folder.split('/').pop()}, in memory)`,
    chunks: records.length,
    seconds: fts5.buildMs / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    mainCpuSeconds: mainThreadCpuSeconds() - mainBefore,
    waitSeconds: waitedSeconds(threadsBefore, threadTimes()),
    load,
    storeBytes: Number.NaN,
  };
}

const rows: Row[] = [];
const beir = flags.beir;
for (const size of beir ? [0] : sizes) {
  const records = beir ? await beirRecords(beir) : recordsFor(size);
  for (const mode of modes) {
    const row = await measure(size, mode, records, beir ? records.length : perCall);
    rows.push(row);
    console.error(
      `${size} ${mode}: ${Math.round(row.chunks / row.seconds)} chunks/s, ${row.seconds.toFixed(2)} s (load ${row.load.map((l) => l.toFixed(1)).join(' → ')})`,
    );
    if (beir) {
      const fts5 = fts5Row(beir, records);
      rows.push(fts5);
      console.error(`${fts5.mode}: ${fts5.seconds.toFixed(2)} s for ${records.length} documents`);
    }
  }
}

const env = describeEnvironment('bench/ingest/throughput.ts', started, loadBefore);
const f = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log(`# Ingestion throughput (${databaseUrl ? 'PostgreSQL' : 'SQLite'}${beir ? `, ${beir}` : ''})\n`);
console.log(
  `${env.date}, ${env.cpus} × ${env.nproc} (workers by default: ${availableParallelism()}), ${env.memoryGiB} GiB, node ${env.node}, commit ${env.commit}`,
);
console.log(
  `load ${env.loadBefore.toFixed(2)} → ${env.loadAfter.toFixed(2)}, ${env.totalSeconds.toFixed(0)} s; \`${env.command}\`\n`,
);
console.log(
  '| chunks | mode | s | chunks/s | CPU s (all threads) | chunks per CPU-s | main-thread CPU s | main-thread µs/chunk | s waiting for a CPU (all threads) | load avg | store MiB |',
);
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|');
for (const r of rows) {
  console.log(
    `| ${f(r.chunks)} | ${r.mode} | ${f(r.seconds, 1)} | ${f(r.chunks / r.seconds)} | ${f(r.cpuSeconds, 1)} | ${f(r.chunks / r.cpuSeconds)} | ${f(r.mainCpuSeconds, 1)} | ${f((r.mainCpuSeconds * 1e6) / r.chunks)} | ${f(r.waitSeconds, 1)} | ${r.load.map((l) => l.toFixed(1)).join(' → ')} | ${Number.isNaN(r.storeBytes) ? '—' : f(r.storeBytes / 1024 / 1024, 1)} |`,
  );
}
