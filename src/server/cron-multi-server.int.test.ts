import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSchema } from '../store/postgres/drop-store.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import { openSqliteStore } from '../store/sqlite/store.ts';
import type { Store } from '../store/store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { startServeProcess } from '../testing/serve-process.ts';

interface Tick {
  tick_at: string;
  status: string;
  run_id: string | null;
  thread_id: string | null;
  reason: string | null;
  claimed_by: string;
}

/** Two `evident serve` processes on one store whose schedulers poll every 200 ms, with every-second crons allowed. */
async function twoServers(storeArgs: readonly string[]): Promise<{ urls: string[]; processes: ChildProcess[] }> {
  const env = {
    ...process.env,
    EVIDENT_ADMIN_KEY: 'cron-servers-admin-key-0123456789',
    EVIDENT_CRON_MIN_INTERVAL_SECONDS: '1',
    EVIDENT_CRON_POLL_MS: '200',
  };
  const started = await Promise.all([startServeProcess(storeArgs, env), startServeProcess(storeArgs, env)]);
  return { urls: started.map((s) => s.url), processes: started.map((s) => s.child) };
}

async function stopAll(processes: readonly ChildProcess[]): Promise<void> {
  for (const child of processes) child.kill('SIGTERM');
  await Promise.all(
    processes.map((child) => new Promise((done) => (child.exitCode === null ? child.once('exit', done) : done(null)))),
  );
}

/**
 * A stateless cron ticking every second, scheduled by both servers: it fires at least three times within the test,
 * and each tick ran exactly once — one tick row per instant (the store's key), one run per started tick, and no run
 * the ticks do not account for.
 */
async function expectOneRunPerTick(urls: readonly string[], key: string, openStore: () => Promise<Store>) {
  const [first, second] = urls.map((apiUrl) => new Client({ apiUrl, apiKey: key })) as [Client, Client];
  const question = `Cron check ${Date.now()}: what is the termination fee of contract CT-2024-0193?`;
  const cron = await first.crons.create('rag', {
    schedule: '* * * * * *',
    input: { messages: [{ role: 'user', content: question }] },
  });
  const history = async (): Promise<Tick[]> => {
    const response = await fetch(`${urls[1]}/v1/crons/${cron.cron_id}/runs?limit=1000`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { ticks: Tick[] }).ticks;
  };
  let ticks: Tick[] = [];
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    ticks = await history();
    if (ticks.filter((tick) => tick.status === 'started').length >= 3) break;
    await new Promise((done) => setTimeout(done, 250));
  }
  // Deleted through the other server: no tick after this.
  await second.crons.delete(cron.cron_id);
  expect(await first.crons.search()).toEqual([]);

  const started = ticks.filter((tick) => tick.status === 'started');
  expect(started.length, JSON.stringify(ticks)).toBeGreaterThanOrEqual(3);
  // Each instant once, each on a whole second, each with its own run and thread.
  const instants = ticks.map((tick) => tick.tick_at);
  expect(new Set(instants).size).toBe(instants.length);
  for (const instant of instants) expect(Date.parse(instant) % 1000).toBe(0);
  const runIds = started.map((tick) => tick.run_id);
  expect(new Set(runIds).size).toBe(started.length);
  expect(new Set(started.map((tick) => tick.thread_id)).size).toBe(started.length);

  // The store holds exactly the runs the ticks started: no tick ran on both servers.
  const store = await openStore();
  try {
    const threads = (await store.listThreads('alice')).filter((thread) => thread.lastQuestion === question);
    const runs = (await Promise.all(threads.map((thread) => store.listRuns(thread.threadId, 'alice')))).flat();
    const tickRuns = new Set(runIds);
    // A tick claimed in the last instants before the delete may have started its run after the history was read.
    expect(runs.length).toBeGreaterThanOrEqual(started.length);
    expect(runs.length).toBeLessThanOrEqual(started.length + 2);
    for (const runId of tickRuns) expect(runs.map((run) => run.runId)).toContain(runId);
    for (const run of runs) expect(run.question).toBe(question);
  } finally {
    await store.close();
  }
}

describeWithPostgres('a cron on two servers sharing one Postgres store', (url) => {
  const schema = freshSchema('evident_crons');
  const databaseUrl = withSchema(url, schema);
  let servers: { urls: string[]; processes: ChildProcess[] } = { urls: [], processes: [] };
  let aliceKey = '';

  beforeAll(async () => {
    const store = await openPostgresStore(databaseUrl);
    await store.upsertUser({ name: 'alice', groups: ['legal'] });
    aliceKey = (await store.createApiKey('alice')).key;
    await store.close();
    servers = await twoServers(['--database-url', databaseUrl]);
  });
  afterAll(async () => {
    await stopAll(servers.processes);
    await dropSchemas(url, [schema]);
  });

  it('fires every second and runs each tick exactly once', async () => {
    await expectOneRunPerTick(servers.urls, aliceKey, () => openPostgresStore(databaseUrl));
  });
});

describe('a cron on two servers sharing one SQLite file', () => {
  let dir = '';
  let servers: { urls: string[]; processes: ChildProcess[] } = { urls: [], processes: [] };
  let aliceKey = '';
  const db = () => join(dir, 'store.db');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-crons-'));
    const store = await openSqliteStore(db());
    await store.upsertUser({ name: 'alice', groups: ['legal'] });
    aliceKey = (await store.createApiKey('alice')).key;
    await store.close();
    servers = await twoServers(['--db', db()]);
  });
  afterAll(async () => {
    await stopAll(servers.processes);
    await rm(dir, { recursive: true, force: true });
  });

  it('fires every second and runs each tick exactly once', async () => {
    await expectOneRunPerTick(servers.urls, aliceKey, () => openSqliteStore(db()));
  });
});
