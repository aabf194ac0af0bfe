/**
 * The server under load, in a process of its own so the load generator's work does not share its event loop: the
 * sample corpus in a fresh SQLite store, the offline `rag` agent, four users with keys, on 127.0.0.1. Prints
 * `{url, keys}` as one JSON line once it listens. Each `usage` line on stdin is answered with its CPU time so far (so
 * the load generator can take the CPU of a measured batch alone); when stdin closes it shuts down and prints its own
 * resource use.
 *
 * With `EVIDENT_BENCH_WORKERS` = n > 1 the server is n processes on one port (node:cluster hands each accepted
 * connection to a worker in turn), each a whole server (its own run manager, its own connections) over the one
 * SQLite file: this process prepares the store, then only distributes connections; CPU time and memory are the sum
 * of every process (RSS: the largest of each, added).
 */
import cluster, { type Worker } from 'node:cluster';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openAgentRuntime } from '../../src/agent/agent-runtime.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createEvident, type Evident } from '../../src/evident.ts';
import { createApp } from '../../src/server/create-app.ts';
import { startServer } from '../../src/server/start-server.ts';
import { startApiTestServer, TEST_ADMIN_KEY } from '../../src/testing/api-test-server.ts';
import { SAMPLE_CORPUS } from '../../src/testing/sample-corpus-store.ts';

export interface ServerReady {
  url: string;
  keys: Record<string, string>;
}

/** CPU time of the server process so far, ms. */
export interface ServerCpu {
  cpuUserMs: number;
  cpuSystemMs: number;
}

export interface ServerUsage {
  maxRssMiB: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Server processes (1, or the cluster's workers). */
  processes?: number;
}

type WorkerMessage =
  | { kind: 'listening'; url: string }
  | ({ kind: 'cpu' } & ServerCpu)
  | ({ kind: 'usage' } & ServerUsage);

const WORKERS = Math.max(1, Number(process.env.EVIDENT_BENCH_WORKERS ?? '1') || 1);
const USERS = { alice: ['legal'], bob: ['engineering'], carol: ['legal', 'finance'], dave: ['support'] } as const;

const cpuNow = (): ServerCpu => {
  const { user, system } = process.cpuUsage();
  return { cpuUserMs: user / 1000, cpuSystemMs: system / 1000 };
};

const usageNow = (): ServerUsage => {
  const usage = process.resourceUsage();
  return {
    maxRssMiB: Math.round((usage.maxRSS / 1024) * 10) / 10,
    cpuUserMs: Math.round(usage.userCPUTime / 1000),
    cpuSystemMs: Math.round(usage.systemCPUTime / 1000),
  };
};

const openEvident = (db: string, cwd: string): Promise<Evident> =>
  createEvident(loadConfig({ flags: { db }, env: {}, cwd }));

/** Answers `usage` lines on stdin with `cpu()`; on stdin's end, `close()` and prints its usage, then exits. */
function serveStdin(cpu: () => Promise<ServerCpu>, close: () => Promise<ServerUsage>): void {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() === 'usage') void cpu().then((value) => process.stdout.write(`${JSON.stringify(value)}\n`));
  });
  lines.on('close', () => {
    void close().then((usage) => {
      process.stdout.write(`${JSON.stringify(usage)}\n`);
      process.exit(0);
    });
  });
}

async function singleProcess(): Promise<void> {
  const api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  await api.evident.store.upsertUser({ name: 'carol', groups: [...USERS.carol] });
  await api.evident.store.upsertUser({ name: 'dave', groups: [...USERS.dave] });
  const keys = {
    alice: api.keys.alice,
    bob: api.keys.bob,
    carol: (await api.evident.store.createApiKey('carol')).key,
    dave: (await api.evident.store.createApiKey('dave')).key,
  };
  const ready: ServerReady = { url: api.url, keys };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  serveStdin(
    async () => cpuNow(),
    async () => {
      await api.close();
      return usageNow();
    },
  );
}

/** The cluster's primary: prepares the store as `startApiTestServer` does, forks the workers, sums what they report. */
async function primary(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-bench-cluster-'));
  const db = join(dir, 'store.db');
  const evident = await openEvident(db, dir);
  for (const [name, groups] of Object.entries(USERS)) await evident.store.upsertUser({ name, groups: [...groups] });
  const summary = await evident.ingestor.ingest([SAMPLE_CORPUS]);
  if (summary.failed > 0) throw new Error(`the sample corpus did not ingest: ${JSON.stringify(summary.outcomes)}`);
  const keys: Record<string, string> = {};
  for (const name of Object.keys(USERS)) keys[name] = (await evident.store.createApiKey(name)).key;
  await evident.close();

  const workers: Worker[] = [];
  const next = (worker: Worker, kind: WorkerMessage['kind']): Promise<WorkerMessage> =>
    new Promise((resolve) => {
      const listener = (message: WorkerMessage) => {
        if (message.kind !== kind) return;
        worker.off('message', listener);
        resolve(message);
      };
      worker.on('message', listener);
    });
  const urls = await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const worker = cluster.fork({ EVIDENT_BENCH_DB: db, EVIDENT_BENCH_DIR: dir });
      workers.push(worker);
      return ((await next(worker, 'listening')) as { url: string }).url;
    }),
  );
  const [url] = urls;
  if (!url || new Set(urls).size !== 1)
    throw new Error(`the workers listen on different addresses: ${urls.join(', ')}`);
  process.stdout.write(`${JSON.stringify({ url, keys } satisfies ServerReady)}\n`);
  serveStdin(
    async () => {
      const replies = await Promise.all(
        workers.map(async (worker) => (worker.send('cpu'), await next(worker, 'cpu')) as ServerCpu),
      );
      const own = cpuNow();
      return replies.reduce(
        (sum, cpu) => ({ cpuUserMs: sum.cpuUserMs + cpu.cpuUserMs, cpuSystemMs: sum.cpuSystemMs + cpu.cpuSystemMs }),
        own,
      );
    },
    async () => {
      const replies = await Promise.all(
        workers.map(async (worker) => (worker.send('close'), await next(worker, 'usage')) as ServerUsage),
      );
      await rm(dir, { recursive: true, force: true });
      const own = usageNow();
      return replies.reduce(
        (sum, usage) => ({
          maxRssMiB: sum.maxRssMiB + usage.maxRssMiB,
          cpuUserMs: sum.cpuUserMs + usage.cpuUserMs,
          cpuSystemMs: sum.cpuSystemMs + usage.cpuSystemMs,
          processes: WORKERS,
        }),
        own,
      );
    },
  );
}

/** A cluster worker: a whole server over the primary's store, on the port every worker shares. */
async function worker(): Promise<void> {
  const evident = await openEvident(process.env.EVIDENT_BENCH_DB as string, process.env.EVIDENT_BENCH_DIR as string);
  const agents = await openAgentRuntime(evident);
  const server = await startServer(createApp({ evident, adminKey: TEST_ADMIN_KEY, agents }), { port: 0 });
  const send = (message: WorkerMessage) => process.send?.(message);
  send({ kind: 'listening', url: server.url });
  process.on('message', (message) => {
    if (message === 'cpu') send({ kind: 'cpu', ...cpuNow() });
    if (message === 'close') {
      void (async () => {
        await agents.close();
        await server.close();
        await evident.close();
        // Leave once the message is out (a profiling worker writes its profile as it exits).
        process.send?.({ kind: 'usage', ...usageNow() } satisfies WorkerMessage, () => process.exit(0));
      })();
    }
  });
}

if (cluster.isWorker) await worker();
else if (WORKERS > 1) await primary();
else await singleProcess();
