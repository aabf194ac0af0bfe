import { randomUUID } from 'node:crypto';
import { AIMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgent } from '../testing/agent-client.ts';
import { RecordingChatModel } from '../testing/recording-chat-model.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';

/**
 * Permissions are those of the moment of use: a user who loses a group while their run waits for an approval
 * approves it, and the rest of the run retrieves without that group (issue: "an approval resumes with the
 * permissions of the past").
 */
let sample: SampleCorpusStore;
const RESTRICTED = ['$48,000', 'Northwind Logistics', 'contracts/ct-2024-0193.md'];

beforeAll(async () => {
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
});
afterAll(async () => sample?.close());

const toolCall = (name: string, args: Record<string, unknown>) =>
  new AIMessage({
    content: '',
    tool_calls: [{ id: `${name}-${randomUUID().slice(0, 8)}`, name, args, type: 'tool_call' }],
  });

async function pausedRun() {
  const model = new RecordingChatModel([
    toolCall('save_memory', { text: 'I prefer answers in EUR' }),
    // After the approval the model searches the legal-only contract.
    toolCall('knowledge_base', { query: 'termination fee CT-2024-0193' }),
    toolCall('final_answer', {
      answer: 'Not found.',
      answerable: false,
      confidence: 0,
      citations: [],
      missing_information: ['the fee'],
    }),
  ]);
  // One query per knowledge_base call: RAG fusion's own model call stays out of the script.
  const react = await openAgent(sample.evident, 'react', {
    chat: { id: 'recording:now', model },
    bounds: { react: { fusionQueries: 1 } },
  });
  const threadId = randomUUID();
  const alice = await sample.evident.principalFor('alice');
  const first = await react.ask({
    question: 'Remember my currency, then find the termination fee of CT-2024-0193.',
    principal: alice,
    threadId,
  });
  expect(first.status).toBe('interrupted');
  return { model, react, threadId };
}

describe('the principal as the store knows it now', () => {
  it('retrieves after an approval with the groups the user has at that moment, not those the run started with', async () => {
    const { model, react, threadId } = await pausedRun();
    try {
      // An admin removes alice from legal while her run waits.
      await sample.evident.store.upsertUser({ name: 'alice', groups: ['sales'] });
      const approved = await react.approve({
        threadId,
        principal: await sample.evident.principalFor('alice'),
        decision: 'approve',
      });
      expect(approved.tool_calls.map((call) => call.name)).toEqual(['save_memory', 'knowledge_base']);
      expect(approved.evidence_ids.some((id) => id.startsWith('contracts/ct-2024-0193.md'))).toBe(false);
      const afterApproval = model.prompts.slice(1).join('\n');
      for (const text of RESTRICTED) expect(afterApproval).not.toContain(text);
      const events = JSON.stringify(await sample.evident.store.listRunEvents(approved.run_id, 0));
      for (const text of RESTRICTED) expect(events).not.toContain(text);
      const state = await react.graph.getState({ configurable: { thread_id: threadId } });
      expect((state.values as { principal: { groups: string[] } }).principal.groups).toEqual(['sales']);
    } finally {
      await react.close();
      await sample.evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
    }
  });

  it('stops the run of a user deactivated while it waits: nothing more is retrieved for them', async () => {
    const alice = await sample.evident.principalFor('alice');
    const { model, react, threadId } = await pausedRun();
    try {
      await sample.evident.store.setUserActive('alice', false);
      const outcome: unknown = await react.approve({ threadId, principal: alice, decision: 'approve' }).then(
        (result) => result,
        (error: unknown) => error,
      );
      expect(JSON.stringify(outcome)).not.toContain('ct-2024-0193.md');
      expect(outcome).toMatchObject({ code: 'unauthorized' });
      const afterApproval = model.prompts.slice(1).join('\n');
      for (const text of RESTRICTED) expect(afterApproval).not.toContain(text);
    } finally {
      await react.close();
      await sample.evident.store.setUserActive('alice', true);
    }
  });

  it('still finds the contract for a user who keeps the group (the control)', async () => {
    const { react, threadId } = await pausedRun();
    try {
      const approved = await react.approve({
        threadId,
        principal: await sample.evident.principalFor('alice'),
        decision: 'approve',
      });
      expect(approved.evidence_ids.some((id) => id.startsWith('contracts/ct-2024-0193.md'))).toBe(true);
    } finally {
      await react.close();
    }
  });
});
