import type { ChildProcess } from 'node:child_process';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WITHHELD_TEXT } from '../../../runs/redact-for-reader.ts';
import { FakeLlmServer } from '../../../testing/fake-llm-server.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../../testing/sample-corpus-store.ts';
import { scriptedRagAnswer } from '../../../testing/scripted-rag-model.ts';
import { startServeProcess } from '../../../testing/serve-process.ts';

/**
 * Every stream mode the LangGraph SDK names, read with the official client from `evident serve` processes sharing one
 * SQLite store, with a chat model (a local OpenAI-compatible endpoint) so that `messages` and the model's callback
 * events exist: the SDK's event names and shapes, a replay from a `Last-Event-ID` through another server, a join
 * that asks for a mode the run did not record, the per-run bound on the detail modes, and the redaction of what
 * the reader may no longer read.
 */
const ADMIN_KEY = 'stream-modes-admin-key-0123456789';
const QUESTION = 'What is the termination fee of CT-2024-0193?';
/** Text of the contract only the legal group reads. */
const RESTRICTED = ['48,000', 'Northwind', 'contracts/ct-2024-0193.md'];
const DETAIL = ['events', 'debug', 'checkpoints', 'tasks'] as const;
const ALL_MODES = ['values', 'updates', 'custom', 'messages-tuple', ...DETAIL] as const;
/** Server B's bound on the detail modes: a few of a run's events, not all. */
const SMALL_BOUND = 40_000;

interface Part {
  event: string;
  data: unknown;
  id?: string;
}

const llm = new FakeLlmServer();
let sample: SampleCorpusStore;
const servers: ChildProcess[] = [];
let alice: Client;
let aliceOnB: Client;

function serve(extra: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EVIDENT_ADMIN_KEY: ADMIN_KEY,
    EVIDENT_LLM: 'openai:stream-modes-model',
    EVIDENT_LLM_BASE_URL: `${llm.url}/v1`,
    EVIDENT_LLM_API_KEY: 'stream-modes-key',
    ...extra,
  };
  delete env.EVIDENT_DB;
  delete env.EVIDENT_DATABASE_URL;
  return startServeProcess(['--db', sample.db], env);
}

beforeAll(async () => {
  llm.respond = scriptedRagAnswer;
  await llm.start();
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
  const key = (await sample.evident.store.createApiKey('alice')).key;
  const [a, b] = await Promise.all([serve(), serve({ EVIDENT_RUN_DETAIL_STREAM_MAX_BYTES: String(SMALL_BOUND) })]);
  servers.push(a.child, b.child);
  alice = new Client({ apiUrl: a.url, apiKey: key });
  aliceOnB = new Client({ apiUrl: b.url, apiKey: key });
}, 120_000);

afterAll(async () => {
  for (const server of servers) server.kill('SIGTERM');
  await Promise.all(
    servers.map((server) => new Promise((done) => (server.exitCode === null ? server.once('exit', done) : done(null)))),
  );
  await sample?.close();
  await llm.stop();
});

async function collect(stream: AsyncIterable<unknown>): Promise<Part[]> {
  const parts: Part[] = [];
  for await (const part of stream) parts.push(part as Part);
  return parts;
}

const of = (parts: Part[], event: string) => parts.filter((part) => part.event === event);
type Rec = Record<string, unknown>;

/** A run on a new thread of `client`'s, streamed in `modes`. */
async function streamedRun(client: Client, modes: readonly string[]) {
  const thread = await client.threads.create();
  const parts = await collect(
    client.runs.stream(thread.thread_id, 'rag', {
      input: { messages: [{ role: 'user', content: QUESTION }] },
      streamMode: modes as never,
    }),
  );
  const runId = (parts[0]?.data as { run_id: string }).run_id;
  return { threadId: thread.thread_id, runId, parts };
}

describe('every stream mode, through the LangGraph SDK', () => {
  let run: Awaited<ReturnType<typeof streamedRun>>;
  beforeAll(async () => {
    run = await streamedRun(alice, ALL_MODES);
  }, 120_000);

  it('sends each mode under the event name the SDK expects, numbered in order, framed by metadata and end', () => {
    const { parts } = run;
    expect(parts[0]?.event).toBe('metadata');
    expect((parts[0]?.data as { stream_modes: string[] }).stream_modes).toEqual([
      'values',
      'updates',
      'custom',
      'messages',
      ...DETAIL,
    ]);
    expect(parts.at(-1)?.event).toBe('end');
    expect(of(parts, 'error')).toEqual([]);
    for (const event of ['values', 'updates', 'custom', 'messages', ...DETAIL])
      expect(of(parts, event).length).toBeGreaterThan(0);
    const ids = parts.map((part) => Number(part.id));
    expect(ids.every((id, index) => index === 0 || id > (ids[index - 1] as number))).toBe(true);
  });

  it('events: LangChain callback events of every chain and model, in the v2 shape', () => {
    const events = of(run.parts, 'events').map((part) => part.data as Rec);
    for (const event of events) {
      expect(event).toEqual(
        expect.objectContaining({
          event: expect.stringMatching(/^on_/),
          name: expect.any(String),
          run_id: expect.any(String),
          tags: expect.any(Array),
          metadata: expect.any(Object),
          parent_ids: expect.any(Array),
          data: expect.any(Object),
        }),
      );
    }
    const kinds = new Set(events.map((event) => `${event.event}:${event.name}`));
    expect(kinds).toContain('on_chain_start:retrieve');
    expect(kinds).toContain('on_chain_end:generate');
    expect(events.some((event) => event.event === 'on_chat_model_stream')).toBe(true);
    // The root's own stream chunks are the other modes, not events; LangGraph's hidden runnables are left out.
    expect(events.some((event) => event.event === 'on_chain_stream' && event.name === 'LangGraph')).toBe(false);
    expect(events.some((event) => (event.tags as string[]).includes('langsmith:hidden'))).toBe(false);
    const started = events.find((event) => event.event === 'on_chain_start' && event.name === 'retrieve');
    expect((started?.data as { input: Rec }).input).toHaveProperty('question');
  });

  it('tasks: each node starting (input, triggers) and its result', () => {
    const tasks = of(run.parts, 'tasks').map((part) => part.data as Rec);
    const starts = tasks.filter((task) => 'input' in task);
    const results = tasks.filter((task) => 'result' in task);
    expect(starts.map((task) => task.name)).toEqual(expect.arrayContaining(['retrieve', 'generate', 'finalize']));
    for (const task of starts)
      expect(task).toEqual(
        expect.objectContaining({ id: expect.any(String), triggers: expect.any(Array), interrupts: [] }),
      );
    expect(results.map((task) => task.id).sort()).toEqual(starts.map((task) => task.id).sort());
    const generate = results.find((task) => task.name === 'generate');
    expect(generate?.error).toBeNull();
    expect(generate?.result).toHaveProperty('answer');
  });

  it('checkpoints: the state at every step with the ids to fork from, the last one the thread state', async () => {
    const checkpoints = of(run.parts, 'checkpoints').map((part) => part.data as Rec);
    for (const checkpoint of checkpoints) {
      expect(checkpoint).toEqual(
        expect.objectContaining({
          values: expect.any(Object),
          next: expect.any(Array),
          metadata: expect.any(Object),
          tasks: expect.any(Array),
          config: { configurable: expect.objectContaining({ thread_id: run.threadId }) },
          checkpoint: expect.objectContaining({ thread_id: run.threadId, checkpoint_id: expect.any(String) }),
        }),
      );
    }
    const last = checkpoints.at(-1) as { values: { answer: Rec }; next: string[]; checkpoint: Rec };
    expect(last.next).toEqual([]);
    const state = await alice.threads.getState(run.threadId);
    expect(last.checkpoint.checkpoint_id).toBe(state.checkpoint.checkpoint_id);
    expect(last.values.answer).toEqual((state.values as { answer: Rec }).answer);
    const finalValues = of(run.parts, 'values').at(-1)?.data as { answer: Rec };
    expect(last.values.answer).toEqual(finalValues.answer);
  });

  it('debug: checkpoint, task and task_result chunks with their step and time', () => {
    const debug = of(run.parts, 'debug').map((part) => part.data as Rec);
    expect(new Set(debug.map((chunk) => chunk.type))).toEqual(new Set(['checkpoint', 'task', 'task_result']));
    for (const chunk of debug) {
      expect(chunk).toEqual(
        expect.objectContaining({
          step: expect.any(Number),
          timestamp: expect.any(String),
          payload: expect.any(Object),
        }),
      );
    }
    expect(of(run.parts, 'debug').length).toBe(of(run.parts, 'checkpoints').length + of(run.parts, 'tasks').length);
  });

  it('messages: [message chunk, metadata] tuples of the model', () => {
    const tuple = of(run.parts, 'messages')[0]?.data as [Rec, Rec];
    expect(tuple[0]).toEqual(expect.objectContaining({ type: 'AIMessageChunk', content: expect.any(String) }));
    expect(tuple[1]).toEqual(expect.objectContaining({ langgraph_node: expect.any(String) }));
  });

  it('replays every mode from a Last-Event-ID through another server on the store', async () => {
    const middle = run.parts[Math.floor(run.parts.length / 2)] as Part;
    const replayed = await collect(
      aliceOnB.runs.joinStream(run.threadId, run.runId, {
        lastEventId: middle.id as string,
        streamMode: [...ALL_MODES],
      }),
    );
    const after = run.parts.filter((part) => Number(part.id) > Number(middle.id));
    expect(replayed.map((part) => [part.id, part.event])).toEqual(after.map((part) => [part.id, part.event]));
    expect(replayed.map((part) => part.data)).toEqual(after.map((part) => part.data));
    // One mode alone: only its events (and the end).
    const onlyTasks = await collect(alice.runs.joinStream(run.threadId, run.runId, { streamMode: ['tasks'] }));
    expect(new Set(onlyTasks.map((part) => part.event))).toEqual(new Set(['metadata', 'tasks', 'end']));
  });
});

describe('what a run records', () => {
  it('records the detail modes only when asked at creation; a join asking for one it did not record is refused', async () => {
    const plain = await streamedRun(alice, ['values']);
    expect((plain.parts[0]?.data as { stream_modes: string[] }).stream_modes).toEqual([
      'values',
      'updates',
      'custom',
      'messages',
    ]);
    await expect(
      collect(alice.runs.joinStream(plain.threadId, plain.runId, { streamMode: ['values', 'debug'] })),
    ).rejects.toThrow(/did not record the debug stream mode/);
    // Without modes, a join gets what the run recorded.
    const joined = await collect(alice.runs.joinStream(plain.threadId, plain.runId));
    expect(new Set(joined.map((part) => part.event))).toEqual(
      new Set(['metadata', 'values', 'updates', 'custom', 'messages', 'end']),
    );

    // Created in the background with a detail mode: a later join reads it.
    const thread = await alice.threads.create();
    const created = await alice.runs.create(thread.thread_id, 'rag', {
      input: { messages: [{ role: 'user', content: QUESTION }] },
      streamMode: ['checkpoints'],
    });
    const later = await collect(
      alice.runs.joinStream(thread.thread_id, created.run_id, { streamMode: ['checkpoints'] }),
    );
    expect(of(later, 'checkpoints').length).toBeGreaterThan(2);
    expect(of(later, 'events')).toEqual([]);
  }, 120_000);

  it('checks a queued run when it starts: a join asking for a mode it will not record ends with the refusal', async () => {
    const thread = await alice.threads.create();
    const input = { messages: [{ role: 'user', content: QUESTION }] };
    // A slow model keeps the first run busy while the second waits in the queue.
    llm.delayMs = 300;
    try {
      const first = await alice.runs.create(thread.thread_id, 'rag', { input, streamMode: ['values'] });
      const queued = await alice.runs.create(thread.thread_id, 'rag', {
        input,
        streamMode: ['tasks'],
        multitaskStrategy: 'enqueue',
      });
      expect(queued.status).toBe('pending');
      const [refused, everything] = await Promise.all([
        collect(alice.runs.joinStream(thread.thread_id, queued.run_id, { streamMode: ['values', 'debug'] })),
        collect(alice.runs.joinStream(thread.thread_id, queued.run_id)),
      ]);
      expect(refused.map((part) => part.event)).toEqual(['error']);
      expect((refused[0]?.data as { message: string }).message).toMatch(/did not record the debug stream mode/);
      // Joined without modes before it started, it streams what it records.
      expect(everything[0]?.event).toBe('metadata');
      expect(of(everything, 'tasks').length).toBeGreaterThan(0);
      expect(everything.at(-1)?.event).toBe('end');
      await alice.runs.join(thread.thread_id, first.run_id);
    } finally {
      llm.delayMs = 0;
    }
  }, 120_000);

  it("cancels a run that records events (the graph then runs through LangChain's event stream)", async () => {
    const thread = await alice.threads.create();
    llm.delayMs = 400;
    try {
      const run = await alice.runs.create(thread.thread_id, 'rag', {
        input: { messages: [{ role: 'user', content: QUESTION }] },
        streamMode: ['values', 'events'],
      });
      const parts: Part[] = [];
      for await (const part of alice.runs.joinStream(thread.thread_id, run.run_id, { streamMode: ['events'] })) {
        parts.push(part as Part);
        if (part.event === 'events' && parts.length === 3) await alice.runs.cancel(thread.thread_id, run.run_id);
      }
      expect(parts.at(-2)).toMatchObject({ event: 'error', data: { error: 'cancelled' } });
      expect(parts.at(-1)?.event).toBe('end');
      expect((await alice.runs.get(thread.thread_id, run.run_id)).status).toBe('interrupted');
    } finally {
      llm.delayMs = 0;
    }
  }, 120_000);

  it('bounds the detail modes per run and says in each cut mode where it was cut; the other modes are whole', async () => {
    const run = await streamedRun(aliceOnB, ALL_MODES);
    expect(of(run.parts, 'error')).toEqual([]);
    const detail = run.parts.filter((part) => (DETAIL as readonly string[]).includes(part.event));
    const notices = detail.filter((part) => (part.data as { truncated?: boolean }).truncated === true);
    expect(notices.length).toBeGreaterThan(0);
    const events = notices.find((part) => part.event === 'events')?.data as Rec;
    expect(events).toEqual(
      expect.objectContaining({ event: 'on_stream_truncated', mode: 'events', limit_bytes: SMALL_BOUND }),
    );
    // Nothing of a mode after its notice, and what was stored stays within the bound.
    for (const notice of notices)
      expect(run.parts.filter((part) => part.event === notice.event && Number(part.id) > Number(notice.id))).toEqual(
        [],
      );
    const storedBytes = detail
      .filter((part) => !notices.includes(part))
      .reduce((sum, part) => sum + JSON.stringify(part.data).length, 0);
    expect(storedBytes).toBeLessThanOrEqual(SMALL_BOUND);
    // The base modes are never cut: the last values are the thread's state, every step's custom event is there.
    const finalValues = of(run.parts, 'values').at(-1)?.data as { answer: Rec; steps: unknown[] };
    const state = await aliceOnB.threads.getState(run.threadId);
    expect(finalValues.answer).toEqual((state.values as { answer: Rec }).answer);
    expect(of(run.parts, 'custom').length).toBeGreaterThanOrEqual(finalValues.steps.length);
    expect(run.parts.at(-1)?.event).toBe('end');
  }, 120_000);
});

describe('the detail modes, read with the permissions of today', () => {
  it('withhold what came from a document the reader lost, in every mode and every replay', async () => {
    const run = await streamedRun(alice, ALL_MODES);
    const detailOf = (parts: Part[]) =>
      JSON.stringify(parts.filter((part) => (DETAIL as readonly string[]).includes(part.event)));
    // The attack is real: the detail modes carry the contract's text (the model's prompt quotes it).
    const before = detailOf(run.parts);
    for (const text of RESTRICTED) expect(before).toContain(text);
    const isPrompt = (part: Part) =>
      (part.data as Rec).event === 'on_chat_model_start' && JSON.stringify(part.data).includes('48,000');
    expect(run.parts.some(isPrompt)).toBe(true);

    await sample.evident.store.upsertUser({ name: 'alice', groups: ['sales'] });
    try {
      const replay = await collect(alice.runs.joinStream(run.threadId, run.runId, { streamMode: [...ALL_MODES] }));
      expect(replay.map((part) => part.id)).toEqual(run.parts.map((part) => part.id));
      const all = JSON.stringify(replay);
      for (const text of RESTRICTED) expect(all).not.toContain(text);
      expect(detailOf(replay)).toContain(WITHHELD_TEXT);
      // A replay that starts after the retrieval (its evidence events not re-sent) withholds the same.
      const late = run.parts.findIndex(isPrompt);
      const fromLate = await collect(
        aliceOnB.runs.joinStream(run.threadId, run.runId, {
          lastEventId: run.parts[late - 1]?.id as string,
          streamMode: [...ALL_MODES],
        }),
      );
      expect(fromLate.length).toBeGreaterThan(0);
      const lateText = JSON.stringify(fromLate);
      for (const text of RESTRICTED) expect(lateText).not.toContain(text);
      const model = fromLate.find((part) => part.id === run.parts[late]?.id)?.data as Rec;
      expect(model).toMatchObject({ event: 'on_chat_model_start', data: { withheld: WITHHELD_TEXT } });

      // The next run on the thread, with every mode: what it writes holds nothing its principal may not read now, though
      // the thread's state carried the first run's evidence into it (the store's own log is read, not a stream).
      const next = await collect(
        alice.runs.stream(run.threadId, 'rag', {
          input: { messages: [{ role: 'user', content: 'And what is the termination fee again?' }] },
          streamMode: [...ALL_MODES],
        }),
      );
      expect(of(next, 'error')).toEqual([]);
      const nextRunId = (next[0]?.data as { run_id: string }).run_id;
      const writtenEvents = await sample.evident.store.listRunEvents(nextRunId, 0, 5_000);
      const written = JSON.stringify(writtenEvents);
      for (const text of RESTRICTED) expect(written).not.toContain(text);
    } finally {
      await sample.evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
    }
    // The record itself was kept: with the group back, the prompt reads as it was.
    const again = await collect(alice.runs.joinStream(run.threadId, run.runId, { streamMode: ['events'] }));
    expect(JSON.stringify(again)).toContain('48,000');
  }, 120_000);
});
