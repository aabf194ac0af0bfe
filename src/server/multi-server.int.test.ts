import type { ChildProcess } from 'node:child_process';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withSchema } from '../store/postgres/drop-store.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { startServeProcess } from '../testing/serve-process.ts';

interface StreamPart {
  event: string;
  data: unknown;
}

/** `evident serve` in a process of its own on a free port; resolves with its URL once it listens. */
async function serve(databaseUrl: string): Promise<{ url: string; process: ChildProcess }> {
  const { url, child } = await startServeProcess(['--database-url', databaseUrl], {
    ...process.env,
    EVIDENT_ADMIN_KEY: 'multi-server-admin-key-0123456789',
  });
  return { url, process: child };
}

// Two server processes on one Postgres store: a run started on one is streamed, joined and approved through the
// other, and its final state read back from the first. Events and checkpoints live in the database only.
describeWithPostgres('several servers on one Postgres store', (url) => {
  const schema = freshSchema('evident_servers');
  const databaseUrl = withSchema(url, schema);
  const servers: ChildProcess[] = [];
  let first: Client;
  let second: Client;
  let aliceKey = '';

  beforeAll(async () => {
    const store = await openPostgresStore(databaseUrl);
    await store.upsertUser({ name: 'alice', groups: ['legal'] });
    aliceKey = (await store.createApiKey('alice')).key;
    await store.close();
    const [a, b] = await Promise.all([serve(databaseUrl), serve(databaseUrl)]);
    servers.push(a.process, b.process);
    first = new Client({ apiUrl: a.url, apiKey: aliceKey });
    second = new Client({ apiUrl: b.url, apiKey: aliceKey });
  });
  afterAll(async () => {
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(
      servers.map(
        (server) => new Promise((done) => (server.exitCode === null ? server.once('exit', done) : done(null))),
      ),
    );
    await dropSchemas(url, [schema]);
  });

  it('streams, joins and approves a run of one server through the other, and reads its end from the first', async () => {
    const thread = await first.threads.create();
    const run = await first.runs.create(thread.thread_id, 'rag', {
      input: { messages: [{ role: 'user', content: 'Remember that I prefer answers in bullet points' }] },
      streamMode: ['updates', 'values'],
    });

    // The second server has not seen this run start: it reads the stored event log.
    const streamed: StreamPart[] = [];
    for await (const part of second.runs.joinStream(thread.thread_id, run.run_id)) streamed.push(part as StreamPart);
    const events = streamed.map((part) => part.event);
    expect(events.at(-1)).toBe('end');
    expect(events).not.toContain('error');
    const interrupt = streamed.find((part) => part.event === 'updates' && '__interrupt__' in (part.data as object))
      ?.data as {
      __interrupt__: { value: { tool: string; args: { text: string } } }[];
    };
    expect(interrupt.__interrupt__[0]?.value).toMatchObject({
      tool: 'save_memory',
      args: { text: 'I prefer answers in bullet points' },
    });
    await second.runs.join(thread.thread_id, run.run_id);
    expect((await second.runs.get(thread.thread_id, run.run_id)).status).toBe('interrupted');
    expect((await second.threads.getState(thread.thread_id)).next).toEqual(['save_memory']);

    // Approved through the second server, from the checkpoint the first one wrote, while the same approval races
    // in through the first: the store lets one run resume the thread, the other is refused.
    const approvals = await Promise.allSettled(
      [second, first].map((client) =>
        client.runs.wait(thread.thread_id, 'rag', { command: { resume: { decision: 'approve' } } }),
      ),
    );
    expect(approvals.map((approval) => approval.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = approvals.find((approval) => approval.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/409|in progress|no action waiting/i);

    const state = await first.threads.getState(thread.thread_id);
    expect(state.next).toEqual([]);
    expect((state.values as { tool_calls: { name: string; ok: boolean }[] }).tool_calls).toEqual([
      expect.objectContaining({ name: 'save_memory', ok: true }),
    ]);
    const runs = await first.runs.list(thread.thread_id);
    expect(runs.map((r) => r.status).sort()).toEqual(['interrupted', 'success']);
    // Replayed from the first server, the log is the one the second streamed, event for event.
    const replayed: StreamPart[] = [];
    for await (const part of first.runs.joinStream(thread.thread_id, run.run_id)) replayed.push(part as StreamPart);
    expect(replayed.map((part) => part.event)).toEqual(events);

    const store = await openPostgresStore(databaseUrl);
    try {
      expect((await store.listMemories('alice')).map((memory) => memory.text)).toEqual([
        'I prefer answers in bullet points',
      ]);
    } finally {
      await store.close();
    }
  });
});
