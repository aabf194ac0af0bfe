import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { RAG_PLANNING } from '../../../testing/rag-model-script.ts';
import { RecordingChatModel } from '../../../testing/recording-chat-model.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';

/**
 * Double-texting with the official LangGraph SDK against the server on a SQLite store: a second run on a busy thread
 * is refused (`reject`, the default), queued (`enqueue`), or stops the first (`interrupt` keeps its checkpoints,
 * `rollback` deletes it with them). The chat model holds a run at its first call until the test lets go, so the
 * thread is busy for as long as the test needs; a reply that is not held ends the run at once (a refusal).
 */
const model = new RecordingChatModel([], {
  standing: {
    ...RAG_PLANNING,
    standalone_question: (call) => ({
      standalone_question: /Last question: (.+)$/m.exec(call.prompt)?.[1] ?? 'the question',
    }),
  },
});
const gates: (() => void)[] = [];
let api: ApiTestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  api = await startApiTestServer({
    agents: (evident) => openAgentRuntime(evident, { chat: { id: 'recording:double-texting', model }, pollMs: 50 }),
  });
  alice = new Client({ apiUrl: api.url, apiKey: api.keys.alice });
  bob = new Client({ apiUrl: api.url, apiKey: api.keys.bob });
});
afterAll(async () => {
  for (const open of gates.splice(0)) open();
  await api?.close();
});

/** The answerability step's reply that ends a run refused (no evidence is enough): the run's only scripted call. */
const refusal = { supporting: [], sufficiency: 0, reasons: ['not stated'], missing_information: ['the fee'] };

/** The next model call waits until the returned function is called; then the run ends (refused). */
function heldReply(): () => void {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  gates.push(open);
  model.push(async () => {
    await gate;
    return refusal;
  });
  return open;
}

const input = (question: string) => ({ messages: [{ role: 'user', content: question }] });

/** The scripted calls so far (the standing planning steps are not counted). */
const scriptedCalls = () =>
  model.calls.filter((call) => !['sub_questions', 'route', 'standalone_question'].includes(call.schemaName ?? ''))
    .length;

/** Waits until the model has had `count` scripted calls in all: a held run has reached its model call. */
async function modelCalls(count: number): Promise<void> {
  for (let tries = 0; tries < 400 && scriptedCalls() < count; tries++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect(scriptedCalls()).toBeGreaterThanOrEqual(count);
}

/** A thread with a run held at its model call: the thread is busy until the returned function lets it go. */
async function busyThread(question: string) {
  const thread = await alice.threads.create();
  const open = heldReply();
  const calls = scriptedCalls();
  const first = await alice.runs.create(thread.thread_id, 'rag', { input: input(question) });
  await modelCalls(calls + 1);
  return { threadId: thread.thread_id, first, open };
}

const questionOf = (values: unknown) => (values as { question?: string }).question;

async function history(threadId: string) {
  return alice.threads.getHistory(threadId, { limit: 100 });
}

describe('multitask_strategy', () => {
  it('reject (the default): a run on a busy thread is refused with 409 and a hint naming the other strategies', async () => {
    const { threadId, first, open } = await busyThread('What is the termination fee of CT-2024-0193?');
    const refused = await api.request('POST', `/threads/${threadId}/runs`, {
      key: api.keys.alice,
      json: { assistant_id: 'rag', input: input('And its notice period?') },
    });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({
      error: { code: 'thread_busy', hint: expect.stringContaining('multitask_strategy') },
    });
    await expect(
      alice.runs.create(threadId, 'rag', { input: input('And its notice period?'), multitaskStrategy: 'reject' }),
    ).rejects.toThrow(/409|in progress/);
    const unknown = await api.request('POST', `/threads/${threadId}/runs`, {
      key: api.keys.alice,
      json: { assistant_id: 'rag', input: input('x'), multitask_strategy: 'cancel' },
    });
    expect(unknown.status).toBe(400);
    open();
    await alice.runs.join(threadId, first.run_id);
    expect((await alice.runs.list(threadId)).map((run) => run.run_id)).toEqual([first.run_id]);
  });

  it('enqueue: runs wait as pending and start in order once the run before them ends; a pending run can be cancelled', async () => {
    const { threadId, first, open } = await busyThread('What is the termination fee of CT-2024-0193?');
    const second = await alice.runs.create(threadId, 'rag', {
      input: input('What is the liability cap of CT-2024-0193?'),
      multitaskStrategy: 'enqueue',
    });
    const third = await alice.runs.create(threadId, 'rag', {
      input: input('Who are the parties of CT-2024-0193?'),
      multitaskStrategy: 'enqueue',
    });
    expect([second.status, third.status]).toEqual(['pending', 'pending']);
    expect(second.multitask_strategy).toBe('enqueue');
    expect((await alice.threads.get(threadId)).status).toBe('busy');
    // A reject on the queued thread is refused, as on a running one.
    await expect(alice.runs.create(threadId, 'rag', { input: input('x') })).rejects.toThrow(/409|in progress/);

    // Joining a pending run waits for it to start and end.
    const joined = alice.runs.join(threadId, second.run_id);
    const streamed: string[] = [];
    const streaming = (async () => {
      for await (const part of alice.runs.joinStream(threadId, second.run_id)) streamed.push(part.event);
    })();
    const cancelled = await alice.runs.cancel(threadId, third.run_id);
    expect(cancelled).toMatchObject({ status: 'interrupted', outcome: 'cancelled' });
    expect((await alice.runs.get(threadId, second.run_id)).status).toBe('pending');

    model.push(refusal);
    open();
    const values = await joined;
    await streaming;
    expect(questionOf(values)).toBe('What is the liability cap of CT-2024-0193?');
    expect(streamed[0]).toBe('metadata');
    expect(streamed.at(-1)).toBe('end');

    const runs = await alice.runs.list(threadId);
    const status = Object.fromEntries(runs.map((run) => [run.run_id, run.status]));
    expect(status).toEqual({ [first.run_id]: 'success', [second.run_id]: 'success', [third.run_id]: 'interrupted' });
    // The queued run ran exactly once, after the first one ended.
    const store = api.evident.store;
    const [firstRecord, secondRecord] = await Promise.all([store.getRun(first.run_id), store.getRun(second.run_id)]);
    const secondEvents = await store.listRunEvents(second.run_id, 0);
    expect(secondEvents.filter((event) => event.event === 'metadata')).toHaveLength(1);
    expect(secondEvents.filter((event) => event.event === 'end')).toHaveLength(1);
    expect(Date.parse(firstRecord?.finishedAt ?? '')).toBeLessThanOrEqual(Date.parse(secondRecord?.finishedAt ?? ''));
    expect(questionOf((await alice.threads.getState(threadId)).values)).toBe(
      'What is the liability cap of CT-2024-0193?',
    );
  });

  it('enqueue on an idle thread starts the run at once; runs/wait and runs/stream of a queued run return its end', async () => {
    const thread = await alice.threads.create();
    model.push(refusal);
    const now = await alice.runs.create(thread.thread_id, 'rag', {
      input: input('What is the termination fee of CT-2024-0193?'),
      multitaskStrategy: 'enqueue',
    });
    expect(now.status).toBe('running');
    await alice.runs.join(thread.thread_id, now.run_id);

    const open = heldReply();
    const calls = scriptedCalls();
    const held = await alice.runs.create(thread.thread_id, 'rag', { input: input('What is the liability cap?') });
    await modelCalls(calls + 1);
    model.push(refusal, refusal);
    const waited = alice.runs.wait(thread.thread_id, 'rag', {
      input: input('Who are the parties of CT-2024-0193?'),
      multitaskStrategy: 'enqueue',
    });
    const events: string[] = [];
    const streamed = (async () => {
      for await (const part of alice.runs.stream(thread.thread_id, 'rag', {
        input: input('What is the notice period of CT-2024-0193?'),
        multitaskStrategy: 'enqueue',
      }))
        events.push(part.event);
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await alice.runs.list(thread.thread_id)).map((run) => run.status).sort()).toEqual([
      'pending',
      'pending',
      'running',
      'success',
    ]);
    open();
    expect(questionOf(await waited)).toBe('Who are the parties of CT-2024-0193?');
    await streamed;
    expect(events[0]).toBe('metadata');
    expect(events.at(-1)).toBe('end');
    expect(events).not.toContain('error');
    await alice.runs.join(thread.thread_id, held.run_id);
    const runs = await alice.runs.list(thread.thread_id);
    expect(runs.map((run) => run.status)).toEqual(['success', 'success', 'success', 'success']);
    // FIFO: the wait was queued before the stream, so the stream's question is the thread's last.
    expect(questionOf((await alice.threads.getState(thread.thread_id)).values)).toBe(
      'What is the notice period of CT-2024-0193?',
    );
  });

  it("interrupt: the running run is stopped with its checkpoints kept, and the new run's answer is the thread's", async () => {
    const { threadId, first } = await busyThread('What is the termination fee of CT-2024-0193?');
    model.push(refusal);
    const second = await alice.runs.create(threadId, 'rag', {
      input: input('What is the liability cap of CT-2024-0193?'),
      multitaskStrategy: 'interrupt',
    });
    expect(second.status).toBe('running');
    const values = await alice.runs.join(threadId, second.run_id);
    expect(questionOf(values)).toBe('What is the liability cap of CT-2024-0193?');
    expect(await alice.runs.get(threadId, first.run_id)).toMatchObject({ status: 'interrupted', outcome: 'cancelled' });
    expect((await alice.runs.get(threadId, second.run_id)).status).toBe('success');
    // The interrupted run's steps are still in the thread's history, under the new run's.
    const questions = (await history(threadId)).map((state) => questionOf(state.values));
    expect(questions).toContain('What is the termination fee of CT-2024-0193?');
    expect(questions[0]).toBe('What is the liability cap of CT-2024-0193?');
    expect(questionOf((await alice.threads.getState(threadId)).values)).toBe(
      'What is the liability cap of CT-2024-0193?',
    );
  });

  it('rollback: the running run is stopped and deleted with its checkpoints; the thread is as before it', async () => {
    const thread = await alice.threads.create();
    model.push(refusal);
    const earlier = await alice.runs.create(thread.thread_id, 'rag', {
      input: input('Who are the parties of CT-2024-0193?'),
    });
    await alice.runs.join(thread.thread_id, earlier.run_id);
    const before = await history(thread.thread_id);

    const open = heldReply();
    const calls = scriptedCalls();
    const rolled = await alice.runs.create(thread.thread_id, 'rag', {
      input: input('What is the termination fee of CT-2024-0193?'),
    });
    await modelCalls(calls + 1);
    expect((await history(thread.thread_id)).length).toBeGreaterThan(before.length);

    model.push(refusal);
    const next = await alice.runs.create(thread.thread_id, 'rag', {
      input: input('What is the liability cap of CT-2024-0193?'),
      multitaskStrategy: 'rollback',
    });
    await alice.runs.join(thread.thread_id, next.run_id);
    open();

    // Gone from the runs and from the history; the earlier run's checkpoints are all there.
    expect((await alice.runs.list(thread.thread_id)).map((run) => run.run_id).sort()).toEqual(
      [earlier.run_id, next.run_id].sort(),
    );
    await expect(alice.runs.get(thread.thread_id, rolled.run_id)).rejects.toThrow(/404|not found/i);
    const after = await history(thread.thread_id);
    const questions = after.map((state) => questionOf(state.values));
    expect(questions).not.toContain('What is the termination fee of CT-2024-0193?');
    const ids = new Set(after.map((state) => state.checkpoint.checkpoint_id));
    for (const state of before) expect(ids).toContain(state.checkpoint.checkpoint_id);
    expect(questionOf((await alice.threads.getState(thread.thread_id)).values)).toBe(
      'What is the liability cap of CT-2024-0193?',
    );
  });

  it('cancel with action=rollback deletes a running run with its checkpoints, and refuses a finished one', async () => {
    const { threadId, first, open } = await busyThread('What is the termination fee of CT-2024-0193?');
    const before = await history(threadId);
    expect(before.length).toBeGreaterThan(0);
    await expect(alice.runs.cancel(threadId, first.run_id, false, 'rollback')).resolves.toBeUndefined();
    open();
    await expect(alice.runs.get(threadId, first.run_id)).rejects.toThrow(/404|not found/i);
    expect(await alice.runs.list(threadId)).toEqual([]);
    expect(await history(threadId)).toEqual([]);

    model.push(refusal);
    const done = await alice.runs.create(threadId, 'rag', {
      input: input('What is the liability cap of CT-2024-0193?'),
    });
    await alice.runs.join(threadId, done.run_id);
    const refused = await api.request('POST', `/threads/${threadId}/runs/${done.run_id}/cancel?action=rollback`, {
      key: api.keys.alice,
    });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: { code: 'run_not_running' } });
    const unknown = await api.request('POST', `/threads/${threadId}/runs/${done.run_id}/cancel?action=delete`, {
      key: api.keys.alice,
    });
    expect(unknown.status).toBe(400);
    expect((await alice.runs.get(threadId, done.run_id)).status).toBe('success');
  });

  it("refuses bob every strategy on alice's busy thread as if it did not exist, and leaves her run alone", async () => {
    const { threadId, first, open } = await busyThread('What is the termination fee of CT-2024-0193?');
    for (const multitaskStrategy of ['enqueue', 'interrupt', 'rollback'] as const) {
      await expect(bob.runs.create(threadId, 'rag', { input: input('Mine now?'), multitaskStrategy })).rejects.toThrow(
        /404|not found/i,
      );
    }
    expect((await alice.runs.get(threadId, first.run_id)).status).toBe('running');
    expect((await alice.runs.list(threadId)).map((run) => run.run_id)).toEqual([first.run_id]);
    // Nor may he cancel her run, queued or running.
    await expect(bob.runs.cancel(threadId, first.run_id)).rejects.toThrow(/404|not found/i);
    open();
    await alice.runs.join(threadId, first.run_id);
    expect((await alice.runs.get(threadId, first.run_id)).status).toBe('success');
  });

  it("cancels a thread's queued runs in one call, rolls back the rest, and deletes a finished run for its owner only", async () => {
    const { threadId, first, open } = await busyThread('What is the termination fee of CT-2024-0193?');
    const queued = [];
    for (const question of ['What is the liability cap?', 'Who are the parties?'])
      queued.push(await alice.runs.create(threadId, 'rag', { input: input(question), multitaskStrategy: 'enqueue' }));
    await expect(bob.runs.cancelMany({ threadId, status: 'pending' })).rejects.toThrow(/404|not found/i);
    await expect(alice.runs.cancelMany({ threadId, runIds: ['no-such-run'] })).rejects.toThrow(/404|not found/i);
    await alice.runs.cancelMany({ threadId, status: 'pending' });
    const statuses = Object.fromEntries((await alice.runs.list(threadId)).map((run) => [run.run_id, run.status]));
    expect(statuses).toEqual({
      [first.run_id]: 'running',
      [queued[0]?.run_id ?? '']: 'interrupted',
      [queued[1]?.run_id ?? '']: 'interrupted',
    });
    await expect(alice.runs.delete(threadId, first.run_id)).rejects.toThrow(/409|in progress/);

    await alice.runs.cancelMany({ threadId, runIds: [first.run_id], action: 'rollback' });
    open();
    expect((await alice.runs.list(threadId)).map((run) => run.run_id).sort()).toEqual(
      queued.map((run) => run.run_id).sort(),
    );
    // A finished run is deleted by the thread's owner; bob is told it does not exist.
    const gone = queued[0]?.run_id ?? '';
    await expect(bob.runs.delete(threadId, gone)).rejects.toThrow(/404|not found/i);
    await alice.runs.delete(threadId, gone);
    await expect(alice.runs.get(threadId, gone)).rejects.toThrow(/404|not found/i);
    expect((await alice.runs.list(threadId)).map((run) => run.run_id)).toEqual([queued[1]?.run_id]);
  });

  // Last in the file: the queued run may or may not call the model, so a reply may be left in the script.
  it("starts a queued run with the asker's access as it is when the run starts, not as it was when it was queued", async () => {
    const store = api.evident.store;
    await store.upsertUser({ name: 'alice', groups: ['legal', 'treasury'] });
    const question = 'How many MSFT shares does the treasury team hold?';
    const thread = await alice.threads.create();
    const open = heldReply();
    const calls = model.calls.length;
    const scripted = scriptedCalls();
    const first = await alice.runs.create(thread.thread_id, 'rag', { input: input(question) });
    await modelCalls(scripted + 1);
    // While in treasury, her question reaches the treasury's notes.
    expect(model.calls.slice(calls).some((call) => call.prompt.includes('MSFT 800 shares'))).toBe(true);
    const queued = await alice.runs.create(thread.thread_id, 'rag', {
      input: input(question),
      multitaskStrategy: 'enqueue',
    });
    expect(queued.status).toBe('pending');

    await store.upsertUser({ name: 'alice', groups: ['legal'] });
    const afterRemoval = model.calls.length;
    model.push(refusal);
    open();
    await alice.runs.join(thread.thread_id, queued.run_id);
    expect((await alice.runs.get(thread.thread_id, first.run_id)).status).toBe('success');
    expect((await alice.runs.get(thread.thread_id, queued.run_id)).status).toBe('success');
    // The queued run read as she may read now: nothing of the treasury's notes reached its model or its evidence.
    expect(model.calls.slice(afterRemoval).some((call) => call.prompt.includes('MSFT 800 shares'))).toBe(false);
    const state = (await alice.threads.getState(thread.thread_id)).values as { evidence?: { doc_id: string }[] };
    expect((state.evidence ?? []).map((item) => item.doc_id)).not.toContain('finance/market-notes.txt');
  });
});
