/**
 * The PostgreSQL store's share of ingestion alone: document writes recorded by `bench/ingest/store-writes.ts --record`
 * (a real ingest's `putDocuments` batches: chunks, keyword forms, vectors, extras; no loading, analysis or embedding
 * left to do) replayed into a fresh schema of this checkout's store and of `--compare`'s (another checkout's folder,
 * node_modules beside its src/), the checkouts alternating round by round in one process, so both see the same input
 * and the same load. Reported per chunk: the client's CPU (this process, user + system), the server's (the store's
 * backends, read from /proc, so the server must run on this machine) and the wall time.
 *
 *   node --import tsx bench/ingest/store-writes.ts --record /tmp/writes-3k.bin --size 3000
 *   node --import tsx bench/store/postgres-store-writes.ts --database-url postgres://… --replay /tmp/writes-3k.bin \
 *        [--batch 64] [--rounds 3] [--compare /tmp/base]
 *
 * `--batch N` regroups the recorded documents N to a transaction; without it the batches are replayed as recorded.
 * Each round's schema (evident_pgwrites_<round>_<i>) is dropped after it is measured and sized.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { parsePostgresUrl } from '../../src/store/postgres/connection.ts';
import { dropPostgresStore, withSchema } from '../../src/store/postgres/drop-store.ts';
import type { Store } from '../../src/store/store.ts';
import { postgresStoreBytes } from './postgres-store-size.ts';
import { readRecordedWrites } from '../ingest/recorded-writes.ts';

const { values: flags } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    replay: { type: 'string' },
    batch: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    compare: { type: 'string' },
  },
  strict: true,
});
if (!flags['database-url'] || !flags.replay)
  throw new Error('--database-url postgres://… and --replay <file> are required');

/** utime + stime of a process, ms (clock ticks at 100 Hz). */
const cpuMs = (pid: number): number => {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const { batches, documents, chunks } = readRecordedWrites(flags.replay, flags.batch ? Number(flags.batch) : 0);
const here = resolve(import.meta.dirname, '../..');
const checkouts = [here, ...(flags.compare ? [resolve(flags.compare)] : [])];
type Open = (url: string) => Promise<Store>;
const opens = await Promise.all(
  checkouts.map(async (dir) => (await import(join(dir, 'src/store/postgres/store.ts'))).openPostgresStore as Open),
);
const admin = new pg.Client({ connectionString: parsePostgresUrl(flags['database-url']).connectionString });
await admin.connect();
/** The server processes serving a schema's store (its pool's connections, named by their search_path). */
const backends = async (): Promise<number[]> =>
  (
    await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = 'evident' AND datname = current_database()`,
    )
  ).rows.map((row) => Number(row.pid));
const serverMs = (pids: readonly number[]) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + cpuMs(pid);
    } catch {
      return sum; // a connection closed meanwhile
    }
  }, 0);

console.log(`${chunks} chunks in ${documents} documents, ${batches.length} transactions\n`);
console.log('| round | checkout | client CPU µs/chunk | server CPU µs/chunk | wall s | chunks/s | store MiB | load |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
const results = new Map<string, { client: number[]; server: number[] }>();
for (let round = 0; round < Number(flags.rounds); round++) {
  for (const [i, dir] of checkouts.entries()) {
    const url = withSchema(flags['database-url'], `evident_pgwrites_${round}_${i}`);
    await dropPostgresStore(url);
    const store = await (opens[i] as Open)(url);
    try {
      // The pool's connections exist before the clock starts: a first write opens one, the rest are reused.
      await store.putDocuments(batches[0] ?? []);
      const pids = await backends();
      const serverBefore = serverMs(pids);
      const cpuBefore = process.cpuUsage();
      const t0 = performance.now();
      for (const batch of batches.slice(1)) await store.putDocuments(batch);
      const cpu = process.cpuUsage(cpuBefore);
      const seconds = (performance.now() - t0) / 1000;
      const server = serverMs(await backends()) - serverBefore;
      const measured = batches.slice(1).reduce((n, batch) => n + batch.reduce((m, w) => m + w.chunks.length, 0), 0);
      const clientUs = (cpu.user + cpu.system) / measured;
      const serverUs = (server * 1000) / measured;
      const entry = results.get(dir) ?? { client: [], server: [] };
      entry.client.push(clientUs);
      entry.server.push(serverUs);
      results.set(dir, entry);
      const bytes = await postgresStoreBytes(url);
      console.log(
        `| ${round} | ${dir} | ${clientUs.toFixed(0)} | ${serverUs.toFixed(0)} | ${seconds.toFixed(1)} | ${(measured / seconds).toFixed(0)} | ${(bytes / 2 ** 20).toFixed(1)} | ${(loadavg()[0] ?? 0).toFixed(1)} |`,
      );
    } finally {
      await store.close();
      await dropPostgresStore(url);
    }
  }
}
await admin.end();
console.log();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
for (const [dir, r] of results)
  console.log(
    `${dir}: median ${median(r.client).toFixed(0)} µs of client CPU and ${median(r.server).toFixed(0)} µs of server CPU per chunk`,
  );
