import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../domain/index.ts';
import { RecordingChatModel } from '../testing/recording-chat-model.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';
import { openAgentRuntime, type AgentRuntime } from '../agent/agent-runtime.ts';

/**
 * Two runtimes over one store file stand for two server processes: each has its own run manager, checkpointer
 * connection and active runs, and they meet only in the store. The model holds the run in its first call.
 */
let sample: SampleCorpusStore;
let executing: AgentRuntime;
let elsewhere: AgentRuntime;
let alice: Principal;
const model = new RecordingChatModel();
const releases: (() => void)[] = [];

beforeAll(async () => {
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
  alice = await sample.evident.principalFor('alice');
  executing = await openAgentRuntime(sample.evident, { chat: { id: 'recording:held', model }, pollMs: 20 });
  elsewhere = await openAgentRuntime(sample.evident, { pollMs: 20 });
});
afterAll(async () => {
  for (const release of releases) release();
  await executing?.close();
  await elsewhere?.close();
  await sample?.close();
});

function holdModel(): Promise<void> {
  return new Promise<void>((reached) => {
    model.push(async () => {
      reached();
      await new Promise<void>((release) => releases.push(release));
      return { answerable: false, reasons: [], missing_information: ['x'] };
    });
  });
}

describe('cancelling a run another process executes', () => {
  it('stops it through the store: the run ends cancelled, its log ends with error and end', async () => {
    const reached = holdModel();
    const threadId = randomUUID();
    const run = await executing.runs.start({
      agent: 'rag',
      threadId,
      principal: alice,
      action: { kind: 'ask', question: 'What is the termination fee of CT-2024-0193?', history: [] },
      createThread: true,
    });
    await reached;
    expect((await sample.evident.store.getRun(run.runId))?.status).toBe('running');

    expect(await elsewhere.runs.cancel(threadId, run.runId, alice)).toBe(true);
    const ended = await sample.evident.store.getRun(run.runId);
    expect(ended).toMatchObject({ status: 'cancelled', cancelRequested: true });
    const events = await sample.evident.store.listRunEvents(run.runId, 0);
    expect(events.slice(-2).map((event) => [event.event, (event.data as { error?: string }).error ?? null])).toEqual([
      ['error', 'cancelled'],
      ['end', null],
    ]);
    expect(await elsewhere.runs.cancel(threadId, run.runId, alice)).toBe(false);
    // The thread is free again, for either process.
    const next = await elsewhere.runs.start({
      agent: 'rag',
      threadId,
      principal: alice,
      action: { kind: 'ask', question: 'What is the termination fee of CT-2024-0193?', history: [] },
    });
    expect((await elsewhere.runs.wait(next.runId, AbortSignal.timeout(30_000)))?.status).toBe('answered');
  });
});
