import { randomUUID } from 'node:crypto';
import { AIMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StateSnapshot } from '@langchain/langgraph';
import type { Principal } from '../../domain/index.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../testing/sample-corpus-store.ts';
import { isPendingAction } from '../../domain/approval.ts';
import type { RunAction } from '../../runs/run-request.ts';
import type { RunManager } from '../../runs/run-manager.ts';
import { openAgent } from '../../testing/agent-client.ts';
import { isStepStreamChunk } from '../../domain/step-event.ts';
import type { ReactStateType } from './react-state.ts';

let sample: SampleCorpusStore;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
});

afterAll(async () => {
  for (const agent of opened) await agent.close();
  await sample?.close();
});

/** The react agent as the API serves it: the runtime's run manager. */
async function runtime(options: Parameters<typeof openAgent>[2] = {}): Promise<RunManager> {
  const agent = await openAgent(sample.evident, 'react', options);
  opened.push(agent);
  return agent.runtime.runs;
}

/** Starts a run, waits for its end, and returns its record, its step events and the thread's state. */
async function run(runs: RunManager, principal: Principal, threadId: string, action: RunAction) {
  const started = await runs.start({ agent: 'react', threadId, principal, action, createThread: true });
  const record = await runs.wait(started.runId, new AbortController().signal);
  const events = await sample.evident.store.listRunEvents(started.runId, 0);
  const steps = events
    .filter((event) => event.event === 'custom')
    .map((event) => (isStepStreamChunk(event.data) ? event.data.event.node : ''));
  const { snapshot } = await runs.threadState(threadId, principal);
  if (!snapshot) throw new Error('no state');
  return { record, steps, snapshot, values: snapshot.values as ReactStateType };
}

/** The actions the thread's state waits for (the interrupts of its pending tasks). */
const pendingActionsOf = (snapshot: StateSnapshot) =>
  snapshot.tasks.flatMap((task) => task.interrupts.map((item) => item.value)).filter(isPendingAction);

const ask = (question: string): RunAction => ({ kind: 'ask', question, history: [] });

describe('react through the run runtime', () => {
  it('interrupts save_memory for approval, and saves exactly once after the approval', async () => {
    const runs = await runtime();
    const alice = await sample.evident.principalFor('alice');
    const threadId = randomUUID();
    const first = await run(runs, alice, threadId, ask('Remember that I prefer invoices in EUR.'));
    expect(first.record?.status).toBe('interrupted');
    const [pending] = pendingActionsOf(first.snapshot);
    expect(pending).toEqual({
      tool: 'save_memory',
      args: { text: 'I prefer invoices in EUR' },
      approval_id: `${first.values.run_id}:save_memory-call-1-0`,
    });
    expect(first.steps).toEqual(['load_memory', 'rewrite', 'reason']);
    expect(await sample.evident.store.listMemories('alice')).toEqual([]);

    const approved = await run(runs, alice, threadId, { kind: 'resume', decision: { decision: 'approve' } });
    expect(approved.record?.status).toBe('answered');
    expect(approved.steps).toEqual(['save_memory', 'reason', 'evidence_gate', 'finalize']);
    expect(approved.values.answer?.answer).toBe('Saved to your memories: I prefer invoices in EUR');
    expect(approved.values.tool_calls).toEqual([
      expect.objectContaining({
        name: 'save_memory',
        ok: true,
        result_summary: expect.stringMatching(/^saved memory /),
      }),
    ]);
    expect((await sample.evident.store.listMemories('alice')).map((memory) => memory.text)).toEqual([
      'I prefer invoices in EUR',
    ]);
  });

  it("runs the model's save_memory call behind the same approval, and a rejection saves nothing", async () => {
    const model = new RecordingChatModel([
      new AIMessage({
        content: '',
        tool_calls: [
          { id: 'mem-1', name: 'save_memory', args: { text: 'My cost centre is QX-7731' }, type: 'tool_call' },
        ],
      }),
      new AIMessage({
        content: '',
        tool_calls: [
          {
            id: 'fin-1',
            name: 'final_answer',
            args: {
              answer: 'Nothing was saved.',
              answerable: true,
              confidence: 1,
              citations: [],
              missing_information: [],
            },
            type: 'tool_call',
          },
        ],
      }),
    ]);
    const runs = await runtime({ chat: { id: 'recording:test', model } });
    const alice = await sample.evident.principalFor('alice');
    const threadId = randomUUID();
    const first = await run(runs, alice, threadId, ask('Please keep my cost centre on file: QX-7731.'));
    expect(pendingActionsOf(first.snapshot)[0]).toMatchObject({
      tool: 'save_memory',
      approval_id: `${first.values.run_id}:save_memory-mem-1`,
    });
    const rejected = await run(runs, alice, threadId, { kind: 'resume', decision: { decision: 'reject' } });
    expect(rejected.record?.status).toBe('answered');
    expect(model.prompts[1]).toContain('Nothing was saved: the memory was rejected.');
    expect((await sample.evident.store.listMemories('alice')).map((memory) => memory.text)).not.toContain(
      'My cost centre is QX-7731',
    );
  });

  it('carries the history across two runs of one thread into the model prompt', async () => {
    const final = (answer: string) =>
      new AIMessage({
        content: '',
        tool_calls: [
          {
            id: randomUUID(),
            name: 'final_answer',
            args: { answer, answerable: false, confidence: 0, citations: [], missing_information: ['x'] },
            type: 'tool_call',
          },
        ],
      });
    const model = new RecordingChatModel([
      final('First answer about pricing.'),
      { standalone_question: 'What is the termination fee of CT-2024-0193?' },
      final('Second answer.'),
    ]);
    const runs = await runtime({ chat: { id: 'recording:test', model } });
    const alice = await sample.evident.principalFor('alice');
    const threadId = randomUUID();
    await run(runs, alice, threadId, ask('What is the pricing of CT-2024-0193?'));
    const second = await run(runs, alice, threadId, ask('And what is its termination fee?'));
    expect(second.values.standalone_question).toBe('What is the termination fee of CT-2024-0193?');
    expect(model.prompts[2]).toContain('Conversation so far');
    expect(model.prompts[2]).toContain('User: What is the pricing of CT-2024-0193?');
    expect(model.prompts[2]).toContain('Assistant: ');
    expect(second.values.history.map((turn) => turn.content)).toEqual([
      'What is the pricing of CT-2024-0193?',
      expect.stringContaining('First answer about pricing.'),
      'And what is its termination fee?',
      expect.stringContaining('Second answer.'),
    ]);
  });
});
