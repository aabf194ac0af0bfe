import { join } from 'node:path';
import { Command } from '@langchain/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEvidentError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';
import { oneNeed, routeTo } from '../../testing/rag-model-script.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../testing/sample-corpus-store.ts';
import { openAgent, type AgentClient } from '../../testing/agent-client.ts';

let sample: SampleCorpusStore;
let evident: Evident;
let agent: AgentClient & { close(): Promise<void> };

beforeAll(async () => {
  sample = await openSampleCorpusStore([
    { name: 'alice', groups: ['legal'] },
    { name: 'bob', groups: ['legal'] },
    { name: 'root', admin: true },
  ]);
  evident = sample.evident;
  agent = await openAgent(evident, 'rag');
});

afterAll(async () => {
  await agent?.close();
  await sample?.close();
});

const as = (name: string) => evident.principalFor(name);
const texts = async (user: string) => (await evident.store.listMemories(user)).map((memory) => memory.text);

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isEvidentError(error)) throw new Error(`expected an EvidentError, got ${String(error)}`);
  return { code: error.code, message: error.toLine() };
}

describe('save_memory: interrupt and approval', () => {
  it('interrupts, and an approval saves the memory exactly once, even when the resume is replayed', async () => {
    const alice = await as('alice');
    const run = await agent.ask({ question: 'Remember that I prefer invoices in EUR.', principal: alice });
    expect(run.status).toBe('interrupted');
    expect((await agent.runs(run.thread_id, alice)).map((record) => record.status)).toEqual(['interrupted']);
    expect(run.pending_action).toEqual({
      tool: 'save_memory',
      args: { text: 'I prefer invoices in EUR' },
      approval_id: `${run.run_id}:save_memory-1`,
    });
    expect(run.steps.map((step) => step.node)).toEqual(['load_memory']);
    expect(await texts('alice')).toEqual([]);

    const approved = await agent.approve({ threadId: run.thread_id, principal: alice, decision: 'approve' });
    // The decision is a run of its own on the thread (as through the API); the side effect's key stays the interrupted run's.
    expect(approved).toMatchObject({ status: 'answered', thread_id: run.thread_id });
    expect(approved.run_id).not.toBe(run.run_id);
    expect(approved.pending_action).toBeUndefined();
    expect(approved.answer?.answer).toBe('Saved to your memories: I prefer invoices in EUR');
    expect(approved.tool_calls).toEqual([
      {
        name: 'save_memory',
        arguments: { text: 'I prefer invoices in EUR' },
        result_summary: expect.stringMatching(/^saved memory /),
        ok: true,
        duration_ms: expect.any(Number),
      },
    ]);
    expect(approved.steps.map((step) => step.node)).toEqual([
      'load_memory',
      'save_memory',
      'evidence_gate',
      'finalize',
    ]);
    expect(await texts('alice')).toEqual(['I prefer invoices in EUR']);
    expect((await agent.runs(run.thread_id, alice)).map((record) => [record.runId, record.status])).toEqual([
      [run.run_id, 'interrupted'],
      [approved.run_id, 'answered'],
    ]);

    // A second approval finds nothing waiting.
    expect(
      await errorOf(agent.approve({ threadId: run.thread_id, principal: alice, decision: 'approve' })),
    ).toMatchObject({ code: 'no_pending_approval' });
    // Replaying the resume from the interrupted checkpoint runs the node again: the idempotency key holds.
    let interrupted: string | undefined;
    for await (const snapshot of agent.graph.getStateHistory({ configurable: { thread_id: run.thread_id } })) {
      if (snapshot.next.includes('save_memory')) interrupted = snapshot.config.configurable?.checkpoint_id as string;
    }
    expect(interrupted).toBeDefined();
    let replay: { tool_calls: { result_summary: string }[] } = { tool_calls: [] };
    const replayed = await agent.graph.stream(new Command({ resume: { decision: 'approve' } }), {
      configurable: { thread_id: run.thread_id, checkpoint_id: interrupted },
      streamMode: 'values',
    });
    for await (const values of replayed) replay = values as typeof replay;
    expect(replay.tool_calls[0]?.result_summary).toMatch(/^already saved memory /);
    expect(await texts('alice')).toEqual(['I prefer invoices in EUR']);
  });

  it('saves the edited text on an edit, and nothing on a reject', async () => {
    const bob = await as('bob');
    const editRun = await agent.ask({ question: 'Note that my team is Legal Ops', principal: bob });
    expect(editRun.status).toBe('interrupted');
    expect(
      await errorOf(
        agent.approve({ threadId: editRun.thread_id, principal: bob, decision: 'edit', args: { text: ' ' } }),
      ),
    ).toMatchObject({ code: 'invalid_input' });
    const edited = await agent.approve({
      threadId: editRun.thread_id,
      principal: bob,
      decision: 'edit',
      args: { text: 'My team is Legal Operations (EMEA)' },
    });
    expect(edited.tool_calls[0]).toMatchObject({
      ok: true,
      arguments: { text: 'My team is Legal Operations (EMEA)' },
      result_summary: expect.stringMatching(/\(edited\)$/),
    });

    const rejectRun = await agent.ask({ question: 'Remember that the audit is on Friday', principal: bob });
    const rejected = await agent.approve({ threadId: rejectRun.thread_id, principal: bob, decision: 'reject' });
    expect(rejected.status).toBe('answered');
    expect(rejected.answer?.answer).toBe('Nothing was saved: the memory was rejected.');
    expect(rejected.tool_calls).toEqual([
      expect.objectContaining({ name: 'save_memory', ok: false, result_summary: 'rejected' }),
    ]);
    expect(await texts('bob')).toEqual(['My team is Legal Operations (EMEA)']);
  });

  it("lets only the thread's owner or an admin decide, without revealing the thread", async () => {
    const run = await agent.ask({ question: 'Remember that my badge number is 4471', principal: await as('alice') });
    const intruder = await errorOf(
      agent.approve({ threadId: run.thread_id, principal: await as('bob'), decision: 'approve' }),
    );
    // The answer a missing thread gets: nothing says the thread exists.
    expect(intruder).toMatchObject({ code: 'not_found' });
    expect(intruder.message).toContain(`No thread named "${run.thread_id}".`);
    expect(intruder.message).not.toMatch(/4471|badge|save_memory/);
    expect(await texts('bob')).not.toContain('My badge number is 4471');
    expect(await texts('alice')).not.toContain('My badge number is 4471');

    // An admin may decide; the memory is still the owner's.
    const approved = await agent.approve({ threadId: run.thread_id, principal: await as('root'), decision: 'approve' });
    expect(approved.status).toBe('answered');
    expect(await texts('alice')).toContain('My badge number is 4471');
    expect(await texts('root')).toEqual([]);
  });
});

describe('long-term memories in later runs', () => {
  it("loads the asking user's relevant memories, and never another user's into a prompt", async () => {
    const alice = await as('alice');
    const bob = await as('bob');
    const saved = await agent.ask({
      question: 'Remember that I prefer invoices for CT-2024-0193 billed to cost centre QX-7731',
      principal: alice,
    });
    await agent.approve({ threadId: saved.thread_id, principal: alice, decision: 'approve' });
    const question = 'Which cost centre do I prefer for invoices of CT-2024-0193?';

    const offline = await agent.ask({ question, principal: alice });
    expect(offline.memories.map((memory) => memory.text)).toContain(
      'I prefer invoices for CT-2024-0193 billed to cost centre QX-7731',
    );
    expect(offline.steps[0]?.summary).toMatch(/memor(y|ies) loaded/);
    // Memories are context, not evidence: nothing cites them.
    expect(offline.answer?.citations.every((citation) => citation.chunk_id !== offline.memories[0]?.id)).toBe(true);
    // An unrelated question loads none.
    expect(
      (await agent.ask({ question: 'How many vacation days do employees get?', principal: alice })).memories,
    ).toEqual([]);

    const script = () => [
      oneNeed,
      routeTo('retrieve'),
      { answerable: true, reasons: ['related'], missing_information: [] },
      {
        answer: 'Not stated in the evidence.',
        answerable: false,
        confidence: 0,
        citations: [],
        missing_information: ['the currency'],
      },
    ];
    const aliceModel = new RecordingChatModel(script());
    const bobModel = new RecordingChatModel(script());
    const aliceAgent = await openAgent(evident, 'rag', { chat: { id: 'recording:alice', model: aliceModel } });
    const bobAgent = await openAgent(evident, 'rag', { chat: { id: 'recording:bob', model: bobModel } });
    try {
      const aliceRun = await aliceAgent.ask({ question, principal: alice });
      const bobRun = await bobAgent.ask({ question, principal: bob });
      expect(aliceModel.prompts.join('\n')).toContain(
        'I prefer invoices for CT-2024-0193 billed to cost centre QX-7731',
      );
      expect(aliceModel.prompts.join('\n')).toContain('never cite it');
      expect(bobModel.calls.length).toBe(aliceModel.calls.length);
      for (const prompt of bobModel.prompts) {
        expect(prompt).not.toContain('QX-7731');
        expect(prompt).not.toContain('I prefer invoices');
        expect(prompt).not.toContain('badge number');
      }
      expect(aliceRun.memories.length).toBeGreaterThan(0);
      expect(bobRun.memories.map((memory) => memory.text)).not.toContain(
        'I prefer invoices for CT-2024-0193 billed to cost centre QX-7731',
      );
    } finally {
      await aliceAgent.close();
      await bobAgent.close();
    }
  });
});
