import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { readSse, type SseEvent } from '../testing/sse-reader.ts';

/**
 * 500 streamed run requests at once against one server with the default run limits (64 at once, 16 per user): each
 * either streams whole to `end` or is refused with 429 and a Retry-After, and nothing is lost, doubled or left
 * behind. Every mode is asked for, so a stream's ids are its run's whole stored log: 1, 2, …, n without a gap.
 * Bounded in count (500 requests, one attempt each) and in time (the test's timeout); no timing is asserted.
 */
const REQUESTS = 500;
const USERS = ['alice', 'bob', 'carol', 'dave'];
const MODES = ['values', 'updates', 'custom', 'messages'];
const QUESTIONS = [
  'What is the termination fee of contract CT-2024-0193?',
  'How many days do customers have to request a refund?',
  'What is the parental leave policy for employees in Brazil?',
  'Who must be told about a security incident, and how fast?',
];

let api: ApiTestServer;
const keys: string[] = [];

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  await api.evident.store.upsertUser({ name: 'carol', groups: ['legal', 'finance'] });
  await api.evident.store.upsertUser({ name: 'dave', groups: ['support'] });
  keys.push(
    api.keys.alice,
    api.keys.bob,
    (await api.evident.store.createApiKey('carol')).key,
    (await api.evident.store.createApiKey('dave')).key,
  );
});
afterAll(async () => api?.close());

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

type Outcome =
  | { kind: 'streamed'; key: string; threadId: string; runId: string; events: SseEvent[] }
  | { kind: 'refused'; key: string; threadId: string; retryAfter: string | null; body: unknown }
  | { kind: 'other'; status: number; text: string };

async function request(key: string, threadId: string, question: string): Promise<Outcome> {
  const response = await fetch(`${api.url}/threads/${threadId}/runs/stream`, {
    method: 'POST',
    headers: headers(key),
    body: JSON.stringify({
      assistant_id: 'rag',
      input: { messages: [{ role: 'user', content: question }] },
      stream_mode: MODES,
    }),
  });
  if (response.status === 429)
    return {
      kind: 'refused',
      key,
      threadId,
      retryAfter: response.headers.get('retry-after'),
      body: await response.json(),
    };
  if (response.status !== 200) return { kind: 'other', status: response.status, text: await response.text() };
  const runId = /\/runs\/([^/]+)$/.exec(response.headers.get('content-location') ?? '')?.[1] ?? '';
  return { kind: 'streamed', key, threadId, runId, events: (await readSse(response)).events };
}

describe(`${REQUESTS} streamed run requests at once`, () => {
  it('stream whole to end or get 429 with Retry-After; every stored log is gap-free and replays exactly', async () => {
    // Threads first, in small groups (not timed, not the point): one per request, each user in turn.
    const plan = Array.from({ length: REQUESTS }, (_, index) => ({
      key: keys[index % USERS.length] as string,
      question: QUESTIONS[index % QUESTIONS.length] as string,
    }));
    const threads: string[] = [];
    for (let start = 0; start < plan.length; start += 50) {
      const group = plan.slice(start, start + 50);
      threads.push(
        ...(await Promise.all(
          group.map(async ({ key }) => {
            const response = await fetch(`${api.url}/threads`, { method: 'POST', headers: headers(key), body: '{}' });
            return ((await response.json()) as { thread_id: string }).thread_id;
          }),
        )),
      );
    }

    const outcomes = await Promise.all(
      plan.map(({ key, question }, index) => request(key, threads[index] as string, question)),
    );

    expect(outcomes.filter((outcome) => outcome.kind === 'other')).toEqual([]);
    const streamed = outcomes.filter((outcome) => outcome.kind === 'streamed');
    const refused = outcomes.filter((outcome) => outcome.kind === 'refused');
    expect(streamed.length + refused.length).toBe(REQUESTS);
    expect(streamed.length).toBeGreaterThan(0);

    for (const outcome of refused) {
      expect(outcome.retryAfter).toMatch(/^\d+$/);
      expect(outcome.body).toMatchObject({ error: { code: 'too_many_runs' } });
      // A refused request started nothing.
      expect(await api.evident.store.listRuns(outcome.threadId, USERS[keys.indexOf(outcome.key)] as string)).toEqual(
        [],
      );
    }

    expect(new Set(streamed.map((run) => run.runId)).size).toBe(streamed.length);
    for (const run of streamed) {
      const { events } = run;
      expect(events[0]).toMatchObject({ event: 'metadata', data: { run_id: run.runId, thread_id: run.threadId } });
      expect(events.at(-1)).toMatchObject({
        event: 'end',
        data: { status: expect.stringMatching(/^(answered|refused)$/) },
      });
      // Every mode was asked for: the ids are the whole log, 1..n, none skipped or repeated, as the store holds it.
      expect(events.map((event) => Number(event.id))).toEqual(events.map((_, index) => index + 1));
      expect(await api.evident.store.lastRunEventSeq(run.runId)).toBe(events.length);
    }

    // Replays from a point in the middle (Last-Event-ID) give exactly the rest, for a sample of the runs.
    for (const run of streamed.filter((_, index) => index % 8 === 0)) {
      const from = Math.floor(run.events.length / 2);
      const query = MODES.map((mode) => `stream_mode=${mode}`).join('&');
      const response = await fetch(`${api.url}/threads/${run.threadId}/runs/${run.runId}/stream?${query}`, {
        headers: { ...headers(run.key), 'last-event-id': String(from) },
      });
      expect((await readSse(response)).events).toEqual(run.events.slice(from));
    }

    // Every admitted run ended and gave its place back: a new run is admitted at once.
    const after = await request(keys[0] as string, threads[0] as string, QUESTIONS[0] as string);
    expect(after.kind).toBe('streamed');
  }, 300_000);
});
