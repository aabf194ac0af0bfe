import type { ChildProcess } from 'node:child_process';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withSchema } from '../store/postgres/drop-store.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import { FakeLlmServer } from '../testing/fake-llm-server.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { scriptedRagAnswer } from '../testing/scripted-rag-model.ts';
import { startServeProcess } from '../testing/serve-process.ts';

/**
 * Double-texting across two `evident serve` processes on one PostgreSQL store: a run queued (`enqueue`) through one
 * server waits while the thread's run executes on the other, starts once that run ends, and runs exactly once; and
 * it still starts when the server executing the run before it is killed. The chat model is a local endpoint the test
 * holds closed while it needs a thread busy.
 */
const HEARTBEAT_MS = 250;
const LEASE_MS = 3_000;
const llm = new FakeLlmServer();
llm.respond = scriptedRagAnswer;

/** Holds every model answer (so every run at its next model call) until the returned function is called. */
function holdModel(): () => void {
  let open = () => {};
  llm.gate = new Promise<void>((resolve) => (open = resolve));
  return () => {
    llm.gate = undefined;
    open();
  };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
async function until(what: string, check: () => boolean | Promise<boolean>, withinMs = 20_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(25);
  }
}

const input = (question: string) => ({ messages: [{ role: 'user', content: question }] });
const questionOf = (values: unknown) => (values as { question?: string }).question;

describeWithPostgres('double-texting across servers on one Postgres store', (url) => {
  const schema = freshSchema('evident_multitask');
  const databaseUrl = withSchema(url, schema);
  const children: ChildProcess[] = [];
  let a: Client;
  let b: Client;
  let serverB: ChildProcess;
  let gateOpen: (() => void) | undefined;

  const serve = async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      EVIDENT_ADMIN_KEY: 'multitask-admin-key-0123456789',
      EVIDENT_LLM: 'openai:multitask-test-model',
      EVIDENT_LLM_BASE_URL: `${llm.url}/v1`,
      EVIDENT_LLM_API_KEY: 'multitask-test-key',
      EVIDENT_RUN_HEARTBEAT_MS: String(HEARTBEAT_MS),
      EVIDENT_RUN_LEASE_MS: String(LEASE_MS),
    };
    delete env.EVIDENT_DB;
    delete env.EVIDENT_DATABASE_URL;
    const server = await startServeProcess(['--database-url', databaseUrl], env);
    children.push(server.child);
    return server;
  };

  beforeAll(async () => {
    await llm.start();
    const store = await openPostgresStore(databaseUrl);
    await store.upsertUser({ name: 'alice', groups: ['legal'] });
    const key = (await store.createApiKey('alice')).key;
    await store.close();
    const [first, second] = await Promise.all([serve(), serve()]);
    serverB = second.child;
    a = new Client({ apiUrl: first.url, apiKey: key });
    b = new Client({ apiUrl: second.url, apiKey: key });
  });
  afterAll(async () => {
    gateOpen?.();
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise((done) =>
            child.exitCode !== null || child.signalCode !== null ? done(null) : child.once('exit', done),
          ),
      ),
    );
    await llm.stop();
    await dropSchemas(url, [schema]);
  });

  /** A run started on server B on a new thread, held at its first model call. */
  async function busyOnB(question: string) {
    gateOpen = holdModel();
    const calls = llm.received.length;
    const thread = await a.threads.create();
    const first = await b.runs.create(thread.thread_id, 'rag', { input: input(question) });
    await until('the run on server B calls the model', () => llm.received.length > calls);
    return { threadId: thread.thread_id, first };
  }

  it('starts a run queued through server A once the run on server B ends, exactly once, from where that run left the thread', async () => {
    const { threadId, first } = await busyOnB('What is the termination fee of CT-2024-0193?');
    const queued = await a.runs.create(threadId, 'rag', {
      input: input('What is the liability cap of CT-2024-0193?'),
      multitaskStrategy: 'enqueue',
    });
    expect(queued.status).toBe('pending');
    // Server B sees the queued run; neither server starts it while the thread's run goes on (a few sweeps pass).
    expect((await b.runs.get(threadId, queued.run_id)).status).toBe('pending');
    await sleep(HEARTBEAT_MS * 4);
    expect((await a.runs.get(threadId, queued.run_id)).status).toBe('pending');
    expect((await b.runs.get(threadId, first.run_id)).status).toBe('running');

    gateOpen?.();
    const values = await a.runs.join(threadId, queued.run_id);
    expect(questionOf(values)).toBe('What is the liability cap of CT-2024-0193?');
    expect((await b.runs.list(threadId)).map((run) => [run.run_id, run.status]).sort()).toEqual(
      [
        [first.run_id, 'success'],
        [queued.run_id, 'success'],
      ].sort(),
    );

    const store = await openPostgresStore(databaseUrl);
    try {
      const run = await store.getRun(queued.run_id);
      expect(run?.attempt).toBe(1);
      const events = await store.listRunEvents(queued.run_id, 0);
      expect(events.filter((event) => event.event === 'metadata')).toHaveLength(1);
      expect(events.filter((event) => event.event === 'end')).toHaveLength(1);
      // It started from the checkpoint the first run ended at: after that run, never beside it.
      const from = (events[0]?.data as { from_checkpoint_id?: string }).from_checkpoint_id;
      const history = await a.threads.getHistory(threadId, { limit: 100 });
      const start = history.find((state) => state.checkpoint.checkpoint_id === from);
      expect(start?.next).toEqual([]);
      expect(questionOf(start?.values)).toBe('What is the termination fee of CT-2024-0193?');
    } finally {
      await store.close();
    }
  });

  it('starts a queued run whose predecessor was executing on a server that died', async () => {
    const { threadId, first } = await busyOnB('Who are the parties of CT-2024-0193?');
    const queued = await a.runs.create(threadId, 'rag', {
      input: input('What is the notice period of CT-2024-0193?'),
      multitaskStrategy: 'enqueue',
    });
    expect(queued.status).toBe('pending');
    serverB.kill('SIGKILL');
    await new Promise((done) =>
      serverB.exitCode !== null || serverB.signalCode !== null ? done(null) : serverB.once('exit', done),
    );
    gateOpen?.();

    // Server A claims the orphan once its lease runs out, ends it, and then starts the queued run.
    const values = await a.runs.join(threadId, queued.run_id);
    expect(questionOf(values)).toBe('What is the notice period of CT-2024-0193?');
    const runs = Object.fromEntries((await a.runs.list(threadId)).map((run) => [run.run_id, run]));
    expect(runs[queued.run_id]?.status).toBe('success');
    expect(runs[first.run_id]?.status).not.toMatch(/running|pending/);
    const store = await openPostgresStore(databaseUrl);
    try {
      expect((await store.getRun(queued.run_id))?.attempt).toBe(1);
      const events = await store.listRunEvents(queued.run_id, 0);
      expect(events.filter((event) => event.event === 'metadata')).toHaveLength(1);
      expect(events.filter((event) => event.event === 'end')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
