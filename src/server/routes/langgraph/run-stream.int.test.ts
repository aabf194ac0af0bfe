import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { RecordingChatModel } from '../../../testing/recording-chat-model.ts';
import { RAG_PLANNING } from '../../../testing/rag-model-script.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';
import { readSse, type SseEvent } from '../../../testing/sse-reader.ts';

/**
 * Runs over raw HTTP and SSE: replay by Last-Event-ID, runs that outlive their client, heartbeats, cancellation.
 * The chat model is held at its first call (inside check_answerability) until the test lets go, so a run can be
 * caught in the middle.
 */
const held: (() => void)[] = [];
let modelCalls = 0;
const model = new RecordingChatModel([], { standing: RAG_PLANNING });
const refusal = { answerable: false, reasons: ['the excerpts do not state it'], missing_information: ['the fee'] };

let api: ApiTestServer;
beforeAll(async () => {
  api = await startApiTestServer({
    agents: (evident) => openAgentRuntime(evident, { chat: { id: 'recording:held', model }, pollMs: 50 }),
    heartbeatMs: 40,
  });
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await api?.close();
});

/** Scripts one model reply that waits for `release()`; resolves `reached` when the run gets there. */
function holdNextModelCall(): { reached: Promise<void>; release: () => void } {
  let release = () => {};
  let reached = () => {};
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  model.push(async () => {
    modelCalls += 1;
    reached();
    await gate;
    return refusal;
  });
  held.push(release);
  return { reached: reachedPromise, release };
}

const headers = (key: string, extra: Record<string, string> = {}) => ({
  'x-api-key': key,
  'content-type': 'application/json',
  ...extra,
});

async function newThread(key = api.keys.alice): Promise<string> {
  const response = await fetch(`${api.url}/threads`, { method: 'POST', headers: headers(key), body: '{}' });
  return ((await response.json()) as { thread_id: string }).thread_id;
}

const streamRun = (threadId: string, body: Record<string, unknown>, key = api.keys.alice) =>
  fetch(`${api.url}/threads/${threadId}/runs/stream`, {
    method: 'POST',
    headers: headers(key),
    body: JSON.stringify({ assistant_id: 'rag', ...body }),
  });

const ask = (question: string) => ({
  input: { messages: [{ role: 'user', content: question }] },
  stream_mode: ['values', 'updates', 'custom'],
});

const join = (threadId: string, runId: string, lastEventId?: string) =>
  fetch(
    `${api.url}/threads/${threadId}/runs/${runId}/stream?stream_mode=values&stream_mode=updates&stream_mode=custom`,
    {
      headers: headers(api.keys.alice, lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
  );

const getJson = async (path: string, key = api.keys.alice) =>
  (await fetch(api.url + path, { headers: headers(key) })).json() as Promise<Record<string, unknown>>;
const runIdOf = (events: SseEvent[]) => (events[0]?.data as { run_id: string }).run_id;
const stepNode = (event: SseEvent) =>
  event.event === 'custom' ? (event.data as { event: { node: string } }).event.node : undefined;

describe('run streams', () => {
  it('replays a finished run from any event id, and whole without one', async () => {
    const threadId = await newThread();
    const release = holdNextModelCall();
    release.release();
    const first = await readSse(await streamRun(threadId, ask('What is the termination fee of CT-2024-0193?')));
    expect(first.events.at(-1)?.event).toBe('end');
    const runId = runIdOf(first.events);

    const whole = await readSse(await join(threadId, runId));
    expect(whole.events).toEqual(first.events);
    const cut = first.events[3]?.id ?? '';
    const rest = await readSse(await join(threadId, runId, cut));
    expect(rest.events).toEqual(first.events.slice(4));
  });

  it('keeps a run going when its client disconnects; another client joins it and reads on without gaps', async () => {
    const threadId = await newThread();
    const { reached, release } = holdNextModelCall();
    const response = await streamRun(threadId, ask('What is the termination fee of CT-2024-0193?'));
    const early = await readSse(response, (event) => stepNode(event) === 'merge_rerank');
    await reached;
    const runId = runIdOf(early.events);
    expect(await getJson(`/threads/${threadId}/runs/${runId}`)).toMatchObject({ status: 'running' });

    const rejoined = readSse(await join(threadId, runId, early.events.at(-1)?.id));
    release();
    const later = await rejoined;
    expect(later.events.at(-1)?.event).toBe('end');
    const ids = [...early.events, ...later.events].map((event) => Number(event.id));
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    expect([...early.events, ...later.events].map(stepNode).filter(Boolean)).toEqual([
      'load_memory',
      'rewrite',
      'decompose',
      'route_question',
      'retrieve',
      'merge_rerank',
      'check_answerability',
      'refuse',
      'evidence_gate',
      'finalize',
    ]);
    expect(await getJson(`/threads/${threadId}/runs/${runId}`)).toMatchObject({
      status: 'success',
      outcome: 'refused',
    });
    const joined = (await getJson(`/threads/${threadId}/runs/${runId}/join`)) as {
      answer: { answerable: boolean; missing_information: string[] };
    };
    expect(joined.answer).toMatchObject({ answerable: false, missing_information: ['the fee'] });
  });

  it('sends heartbeat comments while a step takes long', async () => {
    const threadId = await newThread();
    const { reached, release } = holdNextModelCall();
    const stream = readSse(await streamRun(threadId, ask('What is the termination fee of CT-2024-0193?')));
    await reached;
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    const read = await stream;
    expect(read.comments.filter((comment) => comment === 'heartbeat').length).toBeGreaterThanOrEqual(2);
    expect(read.events.at(-1)?.event).toBe('end');
  });

  it('cancels a running run: it ends cancelled, with an error event before its end, and cannot be cancelled twice', async () => {
    const threadId = await newThread();
    const { reached } = holdNextModelCall();
    const created = await fetch(`${api.url}/threads/${threadId}/runs`, {
      method: 'POST',
      headers: headers(api.keys.alice),
      body: JSON.stringify({
        assistant_id: 'rag',
        input: { question: 'What is the termination fee of CT-2024-0193?' },
      }),
    });
    const run = (await created.json()) as { run_id: string; status: string };
    expect(run.status).toBe('running');
    await reached;

    const busy = await streamRun(threadId, ask('And another question?'));
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('thread_busy');

    const bobCancel = await fetch(`${api.url}/threads/${threadId}/runs/${run.run_id}/cancel`, {
      method: 'POST',
      headers: headers(api.keys.bob),
    });
    expect(bobCancel.status).toBe(404);
    const cancel = await fetch(`${api.url}/threads/${threadId}/runs/${run.run_id}/cancel`, {
      method: 'POST',
      headers: headers(api.keys.alice),
    });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toMatchObject({ status: 'interrupted', outcome: 'cancelled' });
    const replay = await readSse(await join(threadId, run.run_id));
    expect(replay.events.slice(-2).map((event) => event.event)).toEqual(['error', 'end']);
    expect(replay.events.at(-2)?.data).toMatchObject({ error: 'cancelled' });
    const again = await fetch(`${api.url}/threads/${threadId}/runs/${run.run_id}/cancel`, {
      method: 'POST',
      headers: headers(api.keys.alice),
    });
    expect(again.status).toBe(409);
  });

  it('cancels on disconnect when the client asked for it', async () => {
    const threadId = await newThread();
    const { reached } = holdNextModelCall();
    const response = await streamRun(threadId, {
      ...ask('What is the termination fee of CT-2024-0193?'),
      on_disconnect: 'cancel',
    });
    const early = await readSse(response, (event) => stepNode(event) === 'merge_rerank');
    await reached;
    const runId = runIdOf(early.events);
    let status = '';
    for (let i = 0; i < 100 && status !== 'interrupted'; i++) {
      status = String((await getJson(`/threads/${threadId}/runs/${runId}`)).status);
      if (status !== 'interrupted') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await getJson(`/threads/${threadId}/runs/${runId}`)).toMatchObject({
      status: 'interrupted',
      outcome: 'cancelled',
    });
  });

  it('refuses bad run requests with a hint', async () => {
    const threadId = await newThread();
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ assistant_id: 'rag' }, 400, /needs input/],
      [{ assistant_id: 'nobody', input: { question: 'x' } }, 404, /assistant/],
      [
        { assistant_id: 'rag', input: { messages: [{ role: 'assistant', content: 'hi' }] } },
        400,
        /last message must be a non-empty user message/,
      ],
      [{ assistant_id: 'rag', input: { question: 'x' }, stream_mode: 'everything' }, 400, /stream_mode/],
      [
        { assistant_id: 'rag', input: { question: 'x' }, interrupt_before: ['generate'] },
        400,
        /interrupt_before is not supported/,
      ],
      [{ assistant_id: 'rag', command: { resume: { decision: 'approve' } } }, 409, /no action waiting/],
    ];
    for (const [body, status, message] of cases) {
      const response = await fetch(`${api.url}/threads/${threadId}/runs/stream`, {
        method: 'POST',
        headers: headers(api.keys.alice),
        body: JSON.stringify(body),
      });
      const error = ((await response.json()) as { error: { message: string; hint: string | null } }).error;
      expect([response.status, error.message]).toEqual([status, expect.stringMatching(message)]);
    }
    const missing = await fetch(`${api.url}/threads/no-such-thread/runs/wait`, {
      method: 'POST',
      headers: headers(api.keys.alice),
      body: JSON.stringify({ assistant_id: 'rag', input: { question: 'x' } }),
    });
    expect(missing.status).toBe(404);
    expect(modelCalls).toBeGreaterThan(0);
  });
});
