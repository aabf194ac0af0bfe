import type { ChildProcess } from 'node:child_process';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../../config/index.ts';
import { createEvident } from '../../../evident.ts';
import { withSchema } from '../../../store/postgres/drop-store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../../testing/postgres-test-database.ts';
import { SAMPLE_CORPUS } from '../../../testing/sample-corpus-store.ts';
import { startServeProcess } from '../../../testing/serve-process.ts';

/**
 * threads.copy and the state at a checkpoint on PostgreSQL's checkpointer, across two `evident serve` processes: a
 * thread copied through one server reads the same (checkpoints, parents, a pending interrupt) through the other.
 */
const ADMIN_KEY = 'thread-copy-pg-admin-key-0123456789';

describeWithPostgres('copying a thread on two servers sharing PostgreSQL', (url) => {
  const schema = freshSchema('evident_thread_copy');
  const databaseUrl = withSchema(url, schema);
  const servers: ChildProcess[] = [];
  let first: Client;
  let second: Client;

  beforeAll(async () => {
    const evident = await createEvident(loadConfig({ flags: { databaseUrl }, env: {} }));
    try {
      await evident.store.upsertUser({ name: 'alice', groups: ['legal'], roles: ['member'] });
      const summary = await evident.ingestor.ingest([SAMPLE_CORPUS]);
      expect(summary.failed).toBe(0);
      const key = (await evident.store.createApiKey('alice')).key;
      const env: NodeJS.ProcessEnv = { ...process.env, EVIDENT_ADMIN_KEY: ADMIN_KEY };
      delete env.EVIDENT_DB;
      delete env.EVIDENT_LLM;
      const [a, b] = await Promise.all([
        startServeProcess(['--database-url', databaseUrl], env),
        startServeProcess(['--database-url', databaseUrl], env),
      ]);
      servers.push(a.child, b.child);
      first = new Client({ apiUrl: a.url, apiKey: key, callerOptions: { maxRetries: 0 } });
      second = new Client({ apiUrl: b.url, apiKey: key, callerOptions: { maxRetries: 0 } });
    } finally {
      await evident.close();
    }
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(
      servers.map(
        (server) => new Promise((done) => (server.exitCode === null ? server.once('exit', done) : done(null))),
      ),
    );
    await dropSchemas(url, [schema]);
  });

  it('copies every checkpoint, reads it through the other server, and the copy goes on alone', async () => {
    const thread = await first.threads.create({ metadata: { topic: 'fees' } });
    await first.runs.wait(thread.thread_id, 'rag', {
      input: { question: 'What is the termination fee of CT-2024-0193?' },
    });
    const history = await first.threads.getHistory(thread.thread_id, { limit: 1000 });
    const copy = await second.threads.copy(thread.thread_id);
    expect(copy.metadata).toMatchObject({ topic: 'fees', graph_id: 'rag' });
    const copied = await first.threads.getHistory(copy.thread_id, { limit: 1000 });
    expect(
      copied.map((state) => [state.checkpoint.checkpoint_id, state.parent_checkpoint?.checkpoint_id, state.values]),
    ).toEqual(
      history.map((state) => [state.checkpoint.checkpoint_id, state.parent_checkpoint?.checkpoint_id, state.values]),
    );
    const earlier = history[2]!.checkpoint.checkpoint_id!;
    expect((await second.threads.getState(copy.thread_id, earlier)).values).toEqual(history[2]!.values);
    await first.runs.wait(copy.thread_id, 'rag', { input: { question: 'And what is its pricing?' } });
    expect((await second.threads.getHistory(copy.thread_id, { limit: 1000 })).length).toBeGreaterThan(copied.length);
    expect(await second.threads.getHistory(thread.thread_id, { limit: 1000 })).toEqual(history);
  }, 120_000);

  it('copies a pending approval with the state, so the copy asks for the same decision', async () => {
    const thread = await first.threads.create();
    await first.runs.wait(thread.thread_id, 'rag', {
      input: { question: 'Remember that I prefer answers in bullet points' },
    });
    const waiting = await first.threads.getState(thread.thread_id);
    const interrupts = waiting.tasks.flatMap((task) => task.interrupts);
    expect(interrupts.length).toBeGreaterThan(0);
    const copy = await second.threads.copy(thread.thread_id);
    const copied = await first.threads.getState(copy.thread_id);
    expect(copied.tasks.flatMap((task) => task.interrupts)).toEqual(interrupts);
    expect(copied.next).toEqual(waiting.next);
    expect(copied.values).toEqual(waiting.values);
  }, 120_000);
});
