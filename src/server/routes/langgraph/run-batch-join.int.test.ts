import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';

/**
 * The SDK's run calls that name no thread run path, with the official client against the app on 127.0.0.1:
 * `runs.createBatch` (POST /runs/batch), `runs.joinStream(null, runId)` (GET /runs/{id}/stream) and
 * `threads.joinStream` (GET /threads/{id}/stream), each attacked by bob on alice's runs and threads.
 */
let api: ApiTestServer;
let alice: Client;
let bob: Client;
const QUESTION = 'What is the termination fee of contract CT-2024-0193?';
const input = (question = QUESTION) => ({ messages: [{ role: 'user', content: question }] });

beforeAll(async () => {
  // A batch holds at most runs.maxConcurrentPerUser runs: 3 here.
  api = await startApiTestServer({
    agents: (evident) => openAgentRuntime(evident),
    env: { EVIDENT_RUNS_MAX_CONCURRENT_PER_USER: '3' },
    heartbeatMs: 100,
  });
  const noRetry = { maxRetries: 0 };
  alice = new Client({ apiUrl: api.url, apiKey: api.keys.alice, callerOptions: noRetry });
  bob = new Client({ apiUrl: api.url, apiKey: api.keys.bob, callerOptions: noRetry });
});
afterAll(async () => api?.close());

interface Part {
  event: string;
  data: unknown;
  id?: string;
}

async function collect(stream: AsyncIterable<Part>): Promise<Part[]> {
  const parts: Part[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Reads a stream that never ends by itself until `done` says so, then closes its connection. */
async function collectUntil(
  open: (signal: AbortSignal) => AsyncGenerator<Part>,
  done: (parts: Part[]) => boolean,
): Promise<Part[]> {
  const controller = new AbortController();
  const parts: Part[] = [];
  try {
    for await (const part of open(controller.signal)) {
      parts.push(part);
      if (done(parts)) break;
    }
  } finally {
    controller.abort();
  }
  return parts;
}

const statusOf = async (promise: Promise<unknown>): Promise<number | undefined> =>
  promise.then(
    () => undefined,
    (error: { status?: number }) => error.status,
  );

const aliceThreadCount = async () =>
  (await api.request('POST', '/threads/search', { key: api.keys.alice, json: { limit: 1000 } })).json as unknown[];

async function finishedRun(threadId: string, question = QUESTION) {
  const run = await alice.runs.create(threadId, 'rag', { input: input(question) });
  await alice.runs.join(threadId, run.run_id);
  return run;
}

describe('POST /runs/batch (runs.createBatch)', () => {
  it('starts each payload as a stateless run on its own thread, in order, and each answers', async () => {
    const runs = await alice.runs.createBatch([
      { assistantId: 'rag', input: input() },
      { assistantId: 'rag', input: { question: 'Who signed contract CT-2024-0193?' }, metadata: { n: 2 } },
    ]);
    expect(runs).toHaveLength(2);
    expect(new Set(runs.map((run) => run.thread_id)).size).toBe(2);
    for (const run of runs) {
      const values = (await alice.runs.join(run.thread_id, run.run_id)) as { answer?: { answer: string } };
      expect(typeof values.answer?.answer).toBe('string');
      expect(await alice.runs.get(run.thread_id, run.run_id)).toMatchObject({ run_id: run.run_id, status: 'success' });
    }
    // runs.list filters by LangGraph status.
    const [done] = runs as { thread_id: string; run_id: string }[];
    expect((await alice.runs.list(done!.thread_id, { status: 'success' })).map((run) => run.run_id)).toEqual([
      done!.run_id,
    ]);
    expect(await alice.runs.list(done!.thread_id, { status: 'running' })).toEqual([]);
    // A run of alice's batch is hers: bob cannot read it.
    const first = runs[0] as { thread_id: string; run_id: string };
    expect(await statusOf(bob.runs.get(first.thread_id, first.run_id))).toBe(404);
  });

  it('refuses the whole batch when one payload is invalid, naming it, and starts none', async () => {
    const before = (await aliceThreadCount()).length;
    const response = await api.request('POST', '/runs/batch', {
      key: api.keys.alice,
      json: [
        { assistant_id: 'rag', input: input() },
        { assistant_id: 'rag', input: { messages: [{ role: 'assistant', content: 'no question' }] } },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: 'invalid_input' } });
    expect((response.json as { error: { message: string } }).error.message).toContain('[1]');
    const schema = await api.request('POST', '/runs/batch', {
      key: api.keys.alice,
      json: [{ assistant_id: 'rag', input: input() }, { input: input() }],
    });
    expect(schema.status).toBe(400);
    expect((schema.json as { error: { message: string } }).error.message).toContain('[1].assistant_id');
    expect(await statusOf(alice.runs.createBatch([]))).toBe(400);
    expect((await aliceThreadCount()).length).toBe(before);
  });

  it('bounds a batch at runs.maxConcurrentPerUser with a clear 400, starting none', async () => {
    const before = (await aliceThreadCount()).length;
    const four = Array.from({ length: 4 }, () => ({ assistant_id: 'rag', input: input() }));
    const response = await api.request('POST', '/runs/batch', { key: api.keys.alice, json: four });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: 'input_too_large' } });
    const error = (response.json as { error: { message: string; hint: string } }).error;
    expect(error.message).toBe('The batch has 4 runs; the limit is 3.');
    expect(error.hint).toContain('runs.maxConcurrentPerUser');
    expect((await aliceThreadCount()).length).toBe(before);
  });

  it('cancels the runs it started when a later start is refused (an unknown assistant)', async () => {
    const before = new Set(((await aliceThreadCount()) as { thread_id: string }[]).map((t) => t.thread_id));
    const response = await api.request('POST', '/runs/batch', {
      key: api.keys.alice,
      json: [
        { assistant_id: 'rag', input: input() },
        { assistant_id: 'no-such-agent', input: input() },
      ],
    });
    expect([400, 404]).toContain(response.status);
    const added = ((await aliceThreadCount()) as { thread_id: string }[]).filter((t) => !before.has(t.thread_id));
    expect(added).toHaveLength(1);
    const threadId = (added[0] as { thread_id: string }).thread_id;
    const [run] = await alice.runs.list(threadId);
    await alice.runs.join(threadId, run?.run_id as string);
    // Cancelled, unless it had already answered when the refusal came.
    const ended = (await alice.runs.get(threadId, run?.run_id as string)) as unknown as {
      status: string;
      outcome?: string;
    };
    expect(['cancelled', 'answered', 'refused']).toContain(ended.outcome);
  });
});

describe('GET /runs/{run_id}/stream (runs.joinStream without a thread)', () => {
  it("is the run's thread-scoped stream, replayable by Last-Event-ID; bob gets what an absent run gets", async () => {
    const thread = await alice.threads.create();
    const run = await finishedRun(thread.thread_id);
    const scoped = await collect(alice.runs.joinStream(thread.thread_id, run.run_id));
    const byId = await collect(alice.runs.joinStream(null, run.run_id));
    expect(byId).toEqual(scoped);
    expect(byId[0]?.event).toBe('metadata');
    expect(byId.at(-1)?.event).toBe('end');
    const cut = byId[2]?.id as string;
    expect(await collect(alice.runs.joinStream(null, run.run_id, { lastEventId: cut }))).toEqual(byId.slice(3));

    const absent = await api.request('GET', `/runs/${crypto.randomUUID()}/stream`, { key: api.keys.bob });
    const hers = await api.request('GET', `/runs/${run.run_id}/stream`, { key: api.keys.bob });
    expect(hers.status).toBe(404);
    expect(absent.status).toBe(404);
    const shape = (json: unknown, id: string) => JSON.stringify(json).replaceAll(id, '<id>');
    const absentId = (absent.json as { error: { message: string } }).error.message.match(/"(.+)"/)?.[1] ?? '';
    expect(shape(hers.json, run.run_id)).toBe(shape(absent.json, absentId));
    expect(await statusOf(collect(bob.runs.joinStream(null, run.run_id)))).toBe(404);
  });
});

describe('GET /threads/{thread_id}/stream (threads.joinStream)', () => {
  it("follows the thread's next runs as they come, ids naming run and event, and replays by Last-Event-ID", async () => {
    const thread = await alice.threads.create();
    const earlier = await finishedRun(thread.thread_id);
    const ends = (n: number) => (parts: Part[]) => parts.filter((part) => part.event === 'end').length >= n;
    // Nothing runs: the stream waits for the next run (the earlier one has ended and is not streamed).
    const following = collectUntil((signal) => alice.threads.joinStream(thread.thread_id, { signal }), ends(2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const one = await finishedRun(thread.thread_id, 'Who signed contract CT-2024-0193?');
    const two = await finishedRun(thread.thread_id);
    const parts = await following;
    const runsSeen = parts
      .filter((part) => part.event === 'metadata')
      .map((part) => (part.data as { run_id: string }).run_id);
    expect(runsSeen).toEqual([one.run_id, two.run_id]);
    expect(parts.map((part) => part.id?.split(':')[0])).not.toContain(earlier.run_id);
    expect(parts.every((part) => /^[^:]+:\d+$/.test(part.id ?? ''))).toBe(true);
    expect(parts.filter((part) => part.event === 'values').length).toBeGreaterThan(0);

    // From the first run (`-`): all three runs; after an event of `one`: the rest of `one`, then `two`.
    const all = await collectUntil(
      (signal) => alice.threads.joinStream(thread.thread_id, { lastEventId: '-', signal }),
      ends(3),
    );
    expect(
      all.filter((part) => part.event === 'metadata').map((part) => (part.data as { run_id: string }).run_id),
    ).toEqual([earlier.run_id, one.run_id, two.run_id]);
    const cut = parts[2]?.id as string;
    const rest = await collectUntil(
      (signal) => alice.threads.joinStream(thread.thread_id, { lastEventId: cut, signal }),
      ends(2),
    );
    expect(rest).toEqual(parts.slice(3));

    // lifecycle: each run's framing only; state_update: its values only.
    const lifecycle = await collectUntil(
      (signal) => alice.threads.joinStream(thread.thread_id, { lastEventId: '-', streamMode: 'lifecycle', signal }),
      ends(3),
    );
    expect(new Set(lifecycle.map((part) => part.event))).toEqual(new Set(['metadata', 'end']));
    const updates = await collectUntil(
      (signal) =>
        alice.threads.joinStream(thread.thread_id, {
          lastEventId: `${one.run_id}:0`,
          streamMode: 'state_update',
          signal,
        }),
      (seen) => seen.length >= 2,
    );
    expect(new Set(updates.map((part) => part.event))).toEqual(new Set(['values']));
  });

  it("refuses bob alice's thread as absent, an unknown mode with 400, and ends for a reader who lost access", async () => {
    const thread = await alice.threads.create();
    expect(await statusOf(collect(bob.threads.joinStream(thread.thread_id)))).toBe(404);
    expect(await statusOf(collect(bob.threads.joinStream(crypto.randomUUID())))).toBe(404);
    const unknown = await api.request('GET', `/threads/${thread.thread_id}/stream?stream_mode=values`, {
      key: api.keys.alice,
    });
    expect(unknown.status).toBe(400);

    // An admin reads any thread; demoted while the stream waits, the next look refuses it and the stream ends.
    await api.evident.store.upsertUser({ name: 'carol', groups: [], roles: ['admin'] });
    const carol = new Client({
      apiUrl: api.url,
      apiKey: (await api.evident.store.createApiKey('carol')).key,
      callerOptions: { maxRetries: 0 },
    });
    const watching = collect(carol.threads.joinStream(thread.thread_id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await api.evident.store.upsertUser({ name: 'carol', groups: [], roles: [] });
    const seen = await watching;
    expect(seen.map((part) => part.event)).toEqual(['error']);
    expect(seen[0]?.data).toMatchObject({ error: 'not_found' });
  });
});
