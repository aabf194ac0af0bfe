import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../domain/index.ts';
import type { Evident } from '../evident.ts';
import type { RunEventRecord, RunRecord, Store } from '../store/store.ts';
import { RecordingChatModel } from '../testing/recording-chat-model.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';
import { openAgentRuntime, type AgentRuntime } from '../agent/agent-runtime.ts';

/**
 * Two runtimes over one store file stand for two processes. The "dying" one never renews its leases (a heartbeat
 * far longer than its lease) and is held inside a step, so to the store it is a process that stopped mid-run; the
 * other recovers its runs as a restarted server would. The dead one is closed at the end: whatever it then tries to
 * record (its cancellation) is refused, since it no longer holds the runs.
 */
let sample: SampleCorpusStore;
let alice: Principal;
const DYING = { heartbeatMs: 600_000, leaseMs: 300 };
const LIVE = { heartbeatMs: 50, leaseMs: 400 };
const opened: AgentRuntime[] = [];
const releases: (() => void)[] = [];

beforeAll(async () => {
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
  alice = await sample.evident.principalFor('alice');
});
// Each test's processes stop with it, so no runtime of one test sweeps up the orphans of the next.
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
});
afterAll(async () => {
  for (const release of releases) release();
  await sample?.close();
});

/** A runtime over the sample store with these lease settings, the given store port, and optionally a chat model. */
async function runtime(
  runs: { heartbeatMs: number; leaseMs: number },
  options: { store?: Store; model?: RecordingChatModel } = {},
): Promise<AgentRuntime> {
  const evident: Evident = {
    ...sample.evident,
    store: options.store ?? sample.evident.store,
    config: { ...sample.evident.config, runs: { ...sample.evident.config.runs, ...runs } },
  };
  const agents = await openAgentRuntime(evident, {
    pollMs: 20,
    ...(options.model ? { chat: { id: 'recording:held', model: options.model } } : {}),
  });
  opened.push(agents);
  return agents;
}

/** A model whose first call never returns (until the test ends): the process is stuck, as a dead one is. */
function heldModel(): { model: RecordingChatModel; reached: Promise<void> } {
  const model = new RecordingChatModel();
  const reached = new Promise<void>((resolve) => {
    model.push(async () => {
      resolve();
      await new Promise<void>((release) => releases.push(release));
      return { answerable: false, reasons: [], missing_information: ['x'] };
    });
  });
  return { model, reached };
}

const ask = (question: string, threadId: string = randomUUID()) => ({
  agent: 'rag',
  threadId,
  principal: alice,
  action: { kind: 'ask' as const, question, history: [] },
  createThread: true,
});

async function ended(store: Store, runId: string): Promise<RunRecord> {
  for (;;) {
    const run = await store.getRun(runId);
    if (run && run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The log is numbered 1..n without a gap, opens with `metadata`, and ends with its only `end`. */
function expectWholeLog(events: RunEventRecord[]): void {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  expect(events[0]?.event).toBe('metadata');
  expect(events.filter((event) => event.event === 'end')).toHaveLength(1);
  expect(events.at(-1)?.event).toBe('end');
}

describe('recovering the runs of a process that stopped', () => {
  it('resumes a run that died mid-graph from its checkpoint, continuing its log, and shuts the dead process out', async () => {
    const { store } = sample.evident;
    const held = heldModel();
    const dying = await runtime(DYING, { model: held.model });
    const run = await dying.runs.start(ask('What is the termination fee of CT-2024-0193?'));
    await held.reached;
    const before = await store.listRunEvents(run.runId, 0);
    expect(before.length).toBeGreaterThan(1);

    const restarted = await runtime(LIVE);
    const done = await ended(store, run.runId);
    expect(done).toMatchObject({ status: 'answered', attempt: 2 });
    const events = await store.listRunEvents(run.runId, 0);
    expectWholeLog(events);
    // The events stored before the crash are kept as they were; the resumed execution goes on after them.
    // The dead process's last events may still have been in flight when `before` was read, so the resumed
    // execution's first event comes at or after that point, never inside it.
    expect(events.slice(0, before.length)).toEqual(before);
    const resumedAt = events.findIndex(
      (event) => event.event === 'metadata' && (event.data as { attempt?: number }).attempt === 2,
    );
    expect(resumedAt).toBeGreaterThanOrEqual(before.length);
    expect(events[resumedAt]).toMatchObject({ event: 'metadata', data: { run_id: run.runId, attempt: 2 } });
    const state = await restarted.runs.agent('rag').graph.getState({ configurable: { thread_id: run.threadId } });
    expect(state.next).toEqual([]);
    expect((state.values as { answer?: { citations: unknown[] } }).answer?.citations.length).toBeGreaterThan(0);

    // The dead process, stopped at last, records nothing: it no longer holds the run.
    await dying.close();
    expect(await store.listRunEvents(run.runId, 0)).toEqual(events);
    expect((await store.getRun(run.runId))?.status).toBe('answered');
    // The thread takes a new question at once.
    const next = await restarted.runs.start(ask('And the notice period?', run.threadId));
    expect((await ended(store, next.runId)).status).not.toBe('failed');
  });

  it("ends failed, with the public error, a run that died before a checkpoint of its own, never answering with another run's", async () => {
    const { store } = sample.evident;
    const live = await runtime(LIVE);
    const first = await live.runs.start(ask('What is the termination fee of CT-2024-0193?'));
    expect((await ended(store, first.runId)).status).toBe('answered');
    // A run recorded on the thread by a process that died before its graph wrote anything.
    const orphan = await store.startRun({
      runId: randomUUID(),
      threadId: first.threadId,
      agent: 'rag',
      user: 'alice',
      question: 'Who signed it?',
      lease: { owner: 'gone', ttlMs: 1 },
    });

    const done = await ended(store, orphan.runId);
    expect(done).toMatchObject({
      status: 'failed',
      attempt: 2,
      error: expect.stringMatching(/^The process running this run stopped;/),
    });
    const events = await store.listRunEvents(orphan.runId, 0);
    expectWholeLog(events);
    expect(events.map((event) => event.event)).toEqual(['metadata', 'error', 'end']);
    expect(events[1]?.data).toMatchObject({
      error: 'run_orphaned',
      hint: 'Ask again: the thread accepts a new question.',
    });
    const next = await live.runs.start(ask('Who signed it?', first.threadId));
    expect(['answered', 'refused']).toContain((await ended(store, next.runId)).status);
  });

  it('continues an orphan only with its assistant as its owner may read it now, and fails it when that assistant is gone', async () => {
    const { store } = sample.evident;
    const live = await runtime(LIVE);
    const first = await live.runs.start(ask('What is the termination fee of CT-2024-0193?'));
    expect((await ended(store, first.runId)).status).toBe('answered');
    const assistant = await store.createAssistant({
      assistantId: randomUUID(),
      owner: 'alice',
      graphId: 'rag',
      name: 'kept',
      description: null,
      config: { configurable: { agent: { maxEvidence: 1 } } },
      context: {},
      metadata: {},
      acl: [],
    });
    if (!assistant) throw new Error('not created');
    const orphanOf = async (assistantId: string) =>
      store.startRun({
        runId: randomUUID(),
        threadId: first.threadId,
        agent: 'rag',
        user: 'alice',
        question: 'Who signed it?',
        lease: { owner: 'gone', ttlMs: 1 },
        assistantId,
        assistantVersion: 1,
      });
    // Readable: recovered as any orphan is (it died before a checkpoint of its own, so it ends run_orphaned).
    const kept = await orphanOf(assistant.assistantId);
    expect(await ended(store, kept.runId)).toMatchObject({ status: 'failed', assistantId: assistant.assistantId });
    expect((await store.listRunEvents(kept.runId, 0))[1]?.data).toMatchObject({ error: 'run_orphaned' });
    // Deleted meanwhile: the run fails as not found, never continues with the server's configuration.
    await store.deleteAssistant(assistant.assistantId);
    const gone = await orphanOf(assistant.assistantId);
    expect(await ended(store, gone.runId)).toMatchObject({ status: 'failed', attempt: 2 });
    expect((await store.listRunEvents(gone.runId, 0))[1]?.data).toMatchObject({ error: 'not_found' });
  });

  it('runs an approved save_memory once when its decision run died after the write, and never orphans a run waiting for a decision', async () => {
    const { store } = sample.evident;
    const live = await runtime(LIVE);
    const asked = await live.runs.start(ask('Remember that my billing contact is Dana Reyes'));
    expect((await ended(store, asked.runId)).status).toBe('interrupted');
    await new Promise((resolve) => setTimeout(resolve, LIVE.leaseMs + 100));
    expect((await store.listOrphanedRuns()).map((run) => run.runId)).not.toContain(asked.runId);

    // The dying process writes the memory, then stops before its checkpoint records that it did.
    let writes = 0;
    const stopsAfterWrite: Store = Object.create(store, {
      addMemory: {
        value: async (...args: Parameters<Store['addMemory']>) => {
          const saved = await store.addMemory(...args);
          writes += 1;
          await new Promise<void>((release) => releases.push(release));
          return saved;
        },
      },
    }) as Store;
    const dying = await runtime(DYING, { store: stopsAfterWrite });
    const decision = await dying.runs.start({
      agent: 'rag',
      threadId: asked.threadId,
      principal: alice,
      action: { kind: 'resume', decision: { decision: 'approve' } },
    });

    const done = await ended(store, decision.runId);
    expect(writes).toBe(1);
    expect(done).toMatchObject({ status: 'answered', attempt: 2 });
    expectWholeLog(await store.listRunEvents(decision.runId, 0));
    expect(
      (await store.listMemories('alice')).filter((memory) => memory.text === 'My billing contact is Dana Reyes'),
    ).toHaveLength(1);
    const state = await live.runs.agent('rag').graph.getState({ configurable: { thread_id: asked.threadId } });
    expect(state.next).toEqual([]);
    expect(
      (state.values as { tool_calls: { name: string; ok: boolean; result_summary: string }[] }).tool_calls,
    ).toEqual([
      expect.objectContaining({
        name: 'save_memory',
        ok: true,
        result_summary: expect.stringMatching(/^already saved memory /),
      }),
    ]);
  });

  it('hands a recovered run back on close instead of cancelling it, and the next process finishes it', async () => {
    const { store } = sample.evident;
    const first = heldModel();
    const dying = await runtime(DYING, { model: first.model });
    const run = await dying.runs.start(ask('What is the termination fee of CT-2024-0193?'));
    await first.reached;

    const second = heldModel();
    const closing = await runtime(LIVE, { model: second.model });
    await second.reached;
    expect((await store.getRun(run.runId))?.attempt).toBe(2);
    await closing.close();
    const handedBack = await store.getRun(run.runId);
    expect(handedBack?.status).toBe('running');
    expect(Date.parse(handedBack?.lease?.expiresAt ?? '')).toBeLessThanOrEqual(Date.now());

    await runtime(LIVE);
    const done = await ended(store, run.runId);
    expect(done).toMatchObject({ status: 'answered', attempt: 3 });
    const events = await store.listRunEvents(run.runId, 0);
    expectWholeLog(events);
    expect(
      events.filter((event) => event.event === 'metadata').map((event) => (event.data as { attempt: number }).attempt),
    ).toEqual([1, 2, 3]);
  });
});
