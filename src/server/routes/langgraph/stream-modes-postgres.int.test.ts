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
 * The detail stream modes across two `evident serve` processes on one PostgreSQL store: a run streamed from one server
 * is replayed from a `Last-Event-ID`, mode by mode, through the other (its events live in the database only).
 */
const ADMIN_KEY = 'stream-modes-pg-admin-key-0123456789';
const MODES = ['values', 'updates', 'custom', 'events', 'debug', 'checkpoints', 'tasks'] as const;

interface Part {
  event: string;
  data: unknown;
  id?: string;
}
async function collect(stream: AsyncIterable<unknown>): Promise<Part[]> {
  const parts: Part[] = [];
  for await (const part of stream) parts.push(part as Part);
  return parts;
}

describeWithPostgres('the detail stream modes on two servers sharing PostgreSQL', (url) => {
  const schema = freshSchema('evident_stream_modes');
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
      first = new Client({ apiUrl: a.url, apiKey: key });
      second = new Client({ apiUrl: b.url, apiKey: key });
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

  it('replays every detail mode of a run on one server through the other, from any event id', async () => {
    const thread = await first.threads.create();
    const parts = await collect(
      first.runs.stream(thread.thread_id, 'rag', {
        input: { messages: [{ role: 'user', content: 'What is the termination fee of CT-2024-0193?' }] },
        streamMode: [...MODES],
      }),
    );
    expect(parts.filter((part) => part.event === 'error')).toEqual([]);
    for (const mode of ['events', 'debug', 'checkpoints', 'tasks'])
      expect(parts.filter((part) => part.event === mode).length).toBeGreaterThan(0);
    const runId = (parts[0]?.data as { run_id: string }).run_id;
    const middle = parts[Math.floor(parts.length / 2)] as Part;
    const replayed = await collect(
      second.runs.joinStream(thread.thread_id, runId, { lastEventId: middle.id as string, streamMode: [...MODES] }),
    );
    const after = parts.filter((part) => Number(part.id) > Number(middle.id));
    expect(replayed).toEqual(after);
    const checkpoints = await collect(second.runs.joinStream(thread.thread_id, runId, { streamMode: ['checkpoints'] }));
    expect(checkpoints.filter((part) => part.event === 'checkpoints').map((part) => part.data)).toEqual(
      parts.filter((part) => part.event === 'checkpoints').map((part) => part.data),
    );
  }, 120_000);
});
