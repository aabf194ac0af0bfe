import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { readSse, type SseEvent } from '../testing/sse-reader.ts';

/**
 * Many streamed runs at once against one server: every stream must be whole, in order, and identical to what the
 * stored event log replays. No timing is asserted (bench/server measures it).
 */
const RUNS = 50;
const MODES = ['values', 'updates', 'custom'];
const QUESTIONS = [
  'What is the termination fee of contract CT-2024-0193?',
  'How many days do customers have to request a refund?',
  'What is the parental leave policy for employees in Brazil?',
  'Who must be told about a security incident, and how fast?',
  'What does the orders API return when an order is not found?',
];

let api: ApiTestServer;
let keys: string[];

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  await api.evident.store.upsertUser({ name: 'carol', groups: ['legal', 'finance'] });
  await api.evident.store.upsertUser({ name: 'dave', groups: ['support'] });
  keys = [
    api.keys.alice,
    api.keys.bob,
    (await api.evident.store.createApiKey('carol')).key,
    (await api.evident.store.createApiKey('dave')).key,
  ];
});
afterAll(async () => api?.close());

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

async function newThread(key: string): Promise<string> {
  const response = await fetch(`${api.url}/threads`, { method: 'POST', headers: headers(key), body: '{}' });
  expect(response.status).toBe(200);
  return ((await response.json()) as { thread_id: string }).thread_id;
}

interface StreamedRun {
  key: string;
  threadId: string;
  /** From the response's Content-Location, independent of what the stream says. */
  runId: string;
  events: SseEvent[];
}

async function streamRun(key: string, threadId: string, question: string): Promise<StreamedRun> {
  const response = await fetch(`${api.url}/threads/${threadId}/runs/stream`, {
    method: 'POST',
    headers: headers(key),
    body: JSON.stringify({
      assistant_id: 'rag',
      input: { messages: [{ role: 'user', content: question }] },
      stream_mode: MODES,
    }),
  });
  expect(response.status).toBe(200);
  const runId = /\/runs\/([^/]+)$/.exec(response.headers.get('content-location') ?? '')?.[1] ?? '';
  return { key, threadId, runId, events: (await readSse(response)).events };
}

async function replay(run: StreamedRun): Promise<SseEvent[]> {
  const query = MODES.map((mode) => `stream_mode=${mode}`).join('&');
  const response = await fetch(`${api.url}/threads/${run.threadId}/runs/${run.runId}/stream?${query}`, {
    headers: headers(run.key),
  });
  expect(response.status).toBe(200);
  return (await readSse(response)).events;
}

describe(`${RUNS} concurrent streamed runs on one server`, () => {
  it('deliver every run whole, in order, without duplicates, as its stored log replays it, and all succeed', async () => {
    const threads = await Promise.all(
      Array.from({ length: RUNS }, (_, index) => newThread(keys[index % keys.length] as string)),
    );
    const runs = await Promise.all(
      threads.map((threadId, index) =>
        streamRun(keys[index % keys.length] as string, threadId, QUESTIONS[index % QUESTIONS.length] as string),
      ),
    );

    expect(new Set(runs.map((run) => run.runId)).size).toBe(RUNS);
    for (const run of runs) {
      const { events } = run;
      expect(events[0]).toMatchObject({ event: 'metadata', data: { run_id: run.runId, thread_id: run.threadId } });
      expect(events.at(-1)?.event).toBe('end');
      expect(events.map((event) => event.event)).not.toContain('error');
      expect(events.filter((event) => event.event === 'custom').length).toBeGreaterThan(0);
      const ids = events.map((event) => Number(event.id));
      expect(
        ids.every((id, index) => Number.isSafeInteger(id) && (index === 0 || id > (ids[index - 1] as number))),
      ).toBe(true);
      // The replay holds exactly the events of these modes: the same ids (so none skipped, none repeated), the same data.
      expect(events).toEqual(await replay(run));
    }

    const statuses = await Promise.all(
      runs.map(async (run) => {
        const response = await fetch(`${api.url}/threads/${run.threadId}/runs/${run.runId}`, {
          headers: headers(run.key),
        });
        return ((await response.json()) as { status: string }).status;
      }),
    );
    expect(statuses).toEqual(Array.from({ length: RUNS }, () => 'success'));
    // A generous bound for a loaded machine, not a performance target (bench/server measures).
  }, 240_000);
});
