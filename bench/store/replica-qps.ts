/**
 * Retrieval throughput of the PostgreSQL store with 0, 1 and 2 read replicas (hot standbys, EVIDENT_DATABASE_READ_URLS):
 * a synthetic corpus is ingested once on the primary, then for each replica count P processes (as several
 * `evident serve` would be) each run C concurrent `HybridSearch.search` calls in a closed loop for S seconds. Prints
 * QPS, latency and where the reads ran (transactions per server from pg_stat_database), and writes JSON.
 *
 *   npm run bench:replicas -- [--docs 2000] [--seconds 10] [--processes 2] [--concurrency 8] [--replicas 0,1,2]
 *     [--primary postgres://…] [--read-urls postgres://…,postgres://…] [--channels bm25,vector] [--out file.json]
 *
 * Defaults: the primary of ../shared/scripts/start-postgres.sh (EVIDENT_TEST_DATABASE_URL) and the standbys of
 * `scripts/start-postgres-replica.sh 55433` and `… 55434` (EVIDENT_BENCH_READ_URLS). On one machine every server
 * shares the same cores, so the figures show what routing costs and where the reads go, not how far several
 * machines would scale.
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { configSchema } from '../../src/config/index.ts';
import type { Principal } from '../../src/domain/index.ts';
import { createEvident } from '../../src/evident.ts';
import { parsePostgresUrl } from '../../src/store/postgres/connection.ts';
import { dropPostgresStore, withSchema } from '../../src/store/postgres/drop-store.ts';
import type { PostgresStore } from '../../src/store/postgres/store.ts';
import { describeEnvironment } from '../environment.ts';
import { SyntheticCorpus } from '../retrieval/corpus.ts';

const WORKER = '--replica-qps-worker';
const PRINCIPAL: Principal = { id: 'bench', groups: ['legal'], roles: ['member'] };

interface WorkerJob {
  databaseUrl: string;
  readUrls: string[];
  channels: ('bm25' | 'vector')[];
  queries: string[];
  seconds: number;
  concurrency: number;
}

interface WorkerResult {
  searches: number;
  errors: number;
  latencies: number[];
  replicas: { location: string; state: string; reads: number }[];
}

const config = (job: Pick<WorkerJob, 'databaseUrl' | 'readUrls' | 'channels'>) =>
  configSchema.parse({
    databaseUrl: job.databaseUrl,
    ...(job.readUrls.length > 0 ? { databaseReadUrls: job.readUrls } : {}),
    retrieval: { channels: job.channels },
  });

/** One process: opens Evident as a server would, warms up, waits for `go`, then searches for `seconds`. */
async function worker(): Promise<void> {
  const job = await new Promise<WorkerJob>((resolve) => process.once('message', (m) => resolve(m as WorkerJob)));
  const evident = await createEvident(config(job));
  const store = evident.store as PostgresStore;
  await waitFor(() => store.readReplicaStatus().every((replica) => replica.state === 'up'), 30_000);
  for (let i = 0; i < Math.min(50, job.queries.length); i++)
    await evident.search.search(job.queries[i] as string, PRINCIPAL);
  process.send?.({ ready: true });
  await new Promise((resolve) => process.once('message', resolve));
  const latencies: number[] = [];
  let errors = 0;
  let turn = 0;
  const deadline = performance.now() + job.seconds * 1000;
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (performance.now() < deadline) {
        const query = job.queries[turn++ % job.queries.length] as string;
        const started = performance.now();
        try {
          await evident.search.search(query, PRINCIPAL);
          latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    }),
  );
  const replicas = store.readReplicaStatus().map(({ location, state, reads }) => ({ location, state, reads }));
  await evident.close();
  process.send?.({ searches: latencies.length, errors, latencies, replicas } satisfies WorkerResult);
  process.disconnect();
}

async function waitFor(ok: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for the read replicas');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(url).connectionString });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

const transactions = async (url: string) =>
  Number(
    (
      await sql<{ n: string }>(
        url,
        'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
      )
    )[0]?.n ?? 0,
  );

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const { values: flags } = parseArgs({
    options: {
      docs: { type: 'string', default: '2000' },
      seconds: { type: 'string', default: '10' },
      processes: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '8' },
      replicas: { type: 'string', default: '0,1,2' },
      primary: {
        type: 'string',
        default: process.env.EVIDENT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
      },
      'read-urls': {
        type: 'string',
        default:
          process.env.EVIDENT_BENCH_READ_URLS ??
          'postgres://postgres@127.0.0.1:55433/postgres,postgres://postgres@127.0.0.1:55434/postgres',
      },
      channels: { type: 'string', default: 'bm25,vector' },
      out: { type: 'string' },
      seed: { type: 'string', default: '14' },
    },
  });
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const docs = Number(flags.docs);
  const readUrls = (flags['read-urls'] ?? '').split(',').filter(Boolean);
  const counts = (flags.replicas ?? '').split(',').map(Number);
  if (counts.some((n) => n > readUrls.length))
    throw new Error(`--replicas asks for ${Math.max(...counts)} standbys; --read-urls gives ${readUrls.length}.`);
  const channels = (flags.channels ?? '').split(',') as ('bm25' | 'vector')[];
  const schema = `evident_bench_replicas_${Date.now().toString(36)}`;
  const databaseUrl = withSchema(flags.primary as string, schema);

  // Ingest once, on the primary.
  const corpus = new SyntheticCorpus({ seed: Number(flags.seed) });
  const documents = Array.from({ length: docs }, (_, i) => corpus.document(i));
  const ingestStarted = performance.now();
  const loader = await createEvident(config({ databaseUrl, readUrls: [], channels }));
  await loader.ingestor.ingestRecords(documents.map((d) => d.record));
  const stats = await loader.store.stats();
  await loader.close();
  const ingestSeconds = (performance.now() - ingestStarted) / 1000;
  // Queries: a few words of a sentence of some document, and its contract id now and then.
  const queries = Array.from({ length: 400 }, (_, i) => {
    const doc = documents[(i * 7919) % documents.length] as (typeof documents)[number];
    if (i % 10 === 0) return doc.ids[0] as string;
    const words = (doc.sentences[i % doc.sentences.length] as string).replace(/[.;:]/g, '').split(' ');
    const from = i % Math.max(1, words.length - 5);
    return words.slice(from, from + 3 + (i % 4)).join(' ');
  });
  // Every standby has the corpus before any is measured.
  for (const url of readUrls.slice(0, Math.max(...counts))) {
    await waitFor(
      async () =>
        Number((await sql<{ n: string }>(url, `SELECT count(*) AS n FROM "${schema}".chunks`))[0]?.n ?? 0) ===
        stats.chunks,
      120_000,
    );
  }

  const rows = [];
  try {
    for (const count of counts) {
      const job: WorkerJob = {
        databaseUrl,
        readUrls: readUrls.slice(0, count),
        channels,
        queries,
        seconds: Number(flags.seconds),
        concurrency: Number(flags.concurrency),
      };
      const workers = Array.from({ length: Number(flags.processes) }, () =>
        fork(process.argv[1] as string, [WORKER], { execArgv: process.execArgv }),
      );
      const results = workers.map(
        (child) =>
          new Promise<WorkerResult>((resolve, reject) => {
            child.on('message', (m) => {
              if ((m as { ready?: boolean }).ready) return;
              resolve(m as WorkerResult);
            });
            child.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`worker exited with ${code}`))));
          }),
      );
      const ready = workers.map(
        (child) =>
          new Promise<void>((resolve) => child.on('message', (m) => (m as { ready?: boolean }).ready && resolve())),
      );
      for (const child of workers) child.send(job);
      await Promise.all(ready);
      const servers = [flags.primary as string, ...job.readUrls];
      const before = await Promise.all(servers.map(transactions));
      const runStarted = performance.now();
      for (const child of workers) child.send({ go: true });
      const done = await Promise.all(results);
      const seconds = (performance.now() - runStarted) / 1000;
      const after = await Promise.all(servers.map(transactions));
      const latencies = done.flatMap((r) => r.latencies).sort((a, b) => a - b);
      const searches = done.reduce((sum, r) => sum + r.searches, 0);
      rows.push({
        replicas: count,
        processes: workers.length,
        concurrency: job.concurrency,
        searches,
        errors: done.reduce((sum, r) => sum + r.errors, 0),
        qps: searches / seconds,
        p50Ms: percentile(latencies, 50),
        p95Ms: percentile(latencies, 95),
        // Transactions each server committed during the run (the primary's include other clients of that server).
        transactions: servers.map((url, i) => ({
          server: new URL(url).port,
          count: (after[i] as number) - (before[i] as number),
        })),
        replicaReads: job.readUrls.map((url, i) => ({
          server: new URL(url).port,
          reads: done.reduce((sum, r) => sum + (r.replicas[i]?.reads ?? 0), 0),
        })),
      });
    }
  } finally {
    await dropPostgresStore(databaseUrl);
  }

  const environment = describeEnvironment('bench/store/replica-qps.ts', started, loadBefore);
  console.log(
    `retrieval QPS with read replicas — ${docs} documents (${stats.chunks} chunks, ingested in ${ingestSeconds.toFixed(1)} s), channels ${channels.join('+')}`,
  );
  console.log(
    `${environment.cpus} × ${environment.nproc}, load ${environment.loadBefore.toFixed(2)} → ${environment.loadAfter.toFixed(2)}, commit ${environment.commit}`,
  );
  console.log('replicas  processes×conc  searches   QPS    p50 ms  p95 ms  transactions per server (port: count)');
  for (const row of rows) {
    console.log(
      `${String(row.replicas).padStart(8)}  ${`${row.processes}×${row.concurrency}`.padStart(14)}  ${String(row.searches).padStart(8)}  ${row.qps.toFixed(0).padStart(5)}  ${row.p50Ms.toFixed(1).padStart(6)}  ${row.p95Ms.toFixed(1).padStart(6)}  ${row.transactions.map((t) => `${t.server}: ${t.count}`).join(', ')}${row.errors ? `  errors ${row.errors}` : ''}`,
    );
  }
  const out = flags.out ?? join(tmpdir(), `evident-replica-qps-${environment.date}.json`);
  writeFileSync(
    out,
    `${JSON.stringify({ environment, settings: { docs, chunks: stats.chunks, ingestSeconds, channels }, rows }, null, 2)}\n`,
  );
  console.log(`wrote ${out}`);
}

if (process.argv.includes(WORKER)) await worker();
else await main();
