/**
 * The SQLite store's share of ingestion alone: the document writes a real ingest makes (the retrieval benchmark's
 * synthetic records through `Ingestor.ingestRecords`, no workers) recorded once to a file, then replayed into a fresh
 * store of this checkout and of `--compare`'s (another checkout's folder, with node_modules beside its src/), the
 * checkouts alternating round by round in one process, so both see the same input and the same load.
 *
 *   node --import tsx bench/ingest/store-writes.ts --record /tmp/writes-10k.bin --size 10000
 *   node --import tsx bench/ingest/store-writes.ts --replay /tmp/writes-10k.bin --batch 64 --rounds 3 --compare /tmp/base
 *
 * `--onto <file.db>` replays into a copy of that store (each checkout's copy migrated when it opens, before the clock
 * starts) instead of an empty one, the recorded documents and chunks renamed so they add to it: the writes' cost at
 * that store's size (e.g. a 100k-chunk store of `bench/retrieval/run.ts`).
 * `--merge-rows N` sets the keyword postings' merge threshold (rows of `keyword_recent`) in checkouts that have one.
 * `--batch N` regroups the recorded documents N to a transaction (`putDocuments`); without it the batches are
 * replayed as recorded (their size set by `ingest.batchMs` on the recording machine). CPU is the process's
 * (user + system), which here is the writing thread's: the figure to compare, as wall time follows the machine's load.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serialize } from 'node:v8';
import { loadConfig } from '../../src/config/index.ts';
import { createEvident } from '../../src/evident.ts';
import type { TextRecord } from '../../src/ingest/ingestor.ts';
import type { DocumentWrite } from '../../src/store/ports/document-store.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { SyntheticCorpus } from '../retrieval/corpus.ts';
import { readRecordedWrites } from './recorded-writes.ts';

const { values: flags } = parseArgs({
  options: {
    record: { type: 'string' },
    size: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '42' },
    replay: { type: 'string' },
    batch: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    compare: { type: 'string' },
    'merge-rows': { type: 'string' },
    onto: { type: 'string' },
  },
  strict: true,
});

async function record(file: string): Promise<void> {
  const corpus = new SyntheticCorpus({ seed: Number(flags.seed) });
  const records: TextRecord[] = [];
  for (let estimate = 0; estimate < Number(flags.size); ) {
    const { record } = corpus.document(records.length);
    records.push(record);
    estimate += Math.max(1, Math.round(record.text.length / 1_100));
  }
  const dir = mkdtempSync(join(tmpdir(), 'evident-store-writes-'));
  try {
    const store = await openSqliteStore(join(dir, 'record.db'));
    const batches: DocumentWrite[][] = [];
    const putDocuments = store.putDocuments.bind(store);
    store.putDocuments = (writes) => {
      batches.push([...writes]);
      return putDocuments(writes);
    };
    const config = loadConfig({ env: {}, cwd: dir, flags: { db: join(dir, 'record.db'), ingest: { workers: 0 } } });
    const evident = await createEvident(config, { store });
    for (let i = 0; i < records.length; i += 1_000) await evident.ingestor.ingestRecords(records.slice(i, i + 1_000));
    await evident.ingestor.close();
    await evident.close();
    writeFileSync(file, serialize(batches));
    console.log(`${file}: ${batches.length} batches, ${batches.flat().length} document writes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `value` with every string that starts with `docId` (the id, its chunks' ids, the extras' references) prefixed. */
function renamed(value: unknown, docId: string): unknown {
  if (typeof value === 'string') return value.startsWith(docId) ? `replayed/${value}` : value;
  if (Array.isArray(value)) return value.map((item) => renamed(item, docId));
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renamed(item, docId)]));
}

async function replay(file: string): Promise<void> {
  const { batches, documents, chunks } = readRecordedWrites(file, flags.batch ? Number(flags.batch) : 0);
  if (flags.onto)
    for (const batch of batches)
      batch.forEach((write, i) => {
        batch[i] = renamed(write, write.document.docId) as DocumentWrite;
      });
  const here = resolve(import.meta.dirname, '../..');
  const checkouts = [here, ...(flags.compare ? [resolve(flags.compare)] : [])];
  const opens = await Promise.all(
    checkouts.map(
      async (dir) => (await import(join(dir, 'src/store/sqlite/store.ts'))).openSqliteStore as typeof openSqliteStore,
    ),
  );
  if (flags['merge-rows'])
    for (const dir of checkouts) {
      // The keyword postings' merge threshold (recent rows), in checkouts that have one.
      const tails = await import(join(dir, 'src/store/sqlite/keyword-postings/postings-tails.ts'));
      if (tails.mergePolicy) tails.mergePolicy.rows = Number(flags['merge-rows']);
    }
  console.log(`${chunks} chunks in ${documents} documents, ${batches.length} transactions\n`);
  console.log('| round | checkout | CPU s (system) | CPU µs per chunk | wall s | store MiB | load |');
  console.log('|---:|---|---:|---:|---:|---:|---:|');
  const perChunk = new Map<string, number[]>();
  for (let round = 0; round < Number(flags.rounds); round++) {
    for (const [i, dir] of checkouts.entries()) {
      const tmp = mkdtempSync(join(tmpdir(), 'evident-store-writes-'));
      try {
        if (flags.onto) copyFileSync(resolve(flags.onto), join(tmp, 'replay.db'));
        const store = await (opens[i] as typeof openSqliteStore)(join(tmp, 'replay.db'));
        const cpuBefore = process.cpuUsage();
        const t0 = performance.now();
        for (const batch of batches) await store.putDocuments(batch);
        const cpu = process.cpuUsage(cpuBefore);
        const seconds = (performance.now() - t0) / 1000;
        await store.close();
        const bytes = ['', '-wal'].reduce(
          (sum, suffix) => sum + (statSync(join(tmp, `replay.db${suffix}`), { throwIfNoEntry: false })?.size ?? 0),
          0,
        );
        const us = (cpu.user + cpu.system) / chunks;
        perChunk.set(dir, [...(perChunk.get(dir) ?? []), us]);
        console.log(
          `| ${round} | ${dir} | ${((cpu.user + cpu.system) / 1e6).toFixed(2)} (${(cpu.system / 1e6).toFixed(2)}) | ${us.toFixed(0)} | ${seconds.toFixed(1)} | ${(bytes / 2 ** 20).toFixed(1)} | ${(loadavg()[0] ?? 0).toFixed(1)} |`,
        );
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  }
  console.log();
  for (const [dir, values] of perChunk) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `${dir}: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} µs of CPU per chunk (min ${sorted[0]?.toFixed(0)})`,
    );
  }
}

if (flags.record) await record(flags.record);
else if (flags.replay) await replay(flags.replay);
else throw new Error('--record <file> or --replay <file>');
