import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evident } from '../../evident.ts';
import { RecordingChatModel, type RecordedCall, type ScriptedReply } from '../../testing/recording-chat-model.ts';
import { oneNeed, routeTo } from '../../testing/rag-model-script.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../testing/sample-corpus-store.ts';
import { openAgent, type AgentClient } from '../../testing/agent-client.ts';
import type { StepEvent } from '../../domain/step-event.ts';

let sample: SampleCorpusStore;
let evident: Evident;

beforeAll(async () => {
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
  evident = sample.evident;
});

afterAll(async () => {
  await sample?.close();
});

describe('rag run streaming', () => {
  it('delivers each step, with what it decided, as the node completes', async () => {
    const agent = await openAgent(evident, 'rag');
    try {
      const events: StepEvent[] = [];
      const run = await agent.ask({
        question: 'What is the termination fee of CT-2024-0193?',
        principal: await evident.principalFor('alice'),
        onStep: (event) => events.push(event),
      });
      expect(events.map((event) => event.node)).toEqual(run.steps.map((step) => step.node));
      expect(events.map(({ node, summary }) => ({ node, summary }))).toEqual(
        run.steps.map(({ node, summary }) => ({ node, summary })),
      );
      const retrieve = events.find((event) => event.node === 'retrieve');
      expect(retrieve?.hits?.map((hit) => hit.channel)).toEqual(expect.arrayContaining(['bm25', 'fused']));
      expect(retrieve?.hits?.find((hit) => hit.channel === 'bm25')?.chunk_ids[0]).toMatch(
        /^contracts\/ct-2024-0193\.md#\d+$/,
      );
      expect(events.find((event) => event.node === 'merge_rerank')?.evidence?.map((item) => item.chunk_id)).toEqual(
        run.evidence_ids,
      );
      expect(events.find((event) => event.node === 'check_answerability')?.answerability?.answerable).toBe(true);
      expect(events.find((event) => event.node === 'rewrite')?.standalone_question).toBe(
        'What is the termination fee of CT-2024-0193?',
      );
      expect(events.at(-1)).toMatchObject({ node: 'finalize', status: 'answered' });
    } finally {
      await agent.close();
    }
  });

  it('delivers the early steps before the later nodes run', async () => {
    const log: string[] = [];
    // The model's calls happen inside decompose, route_question and check_answerability: the log shows what had been delivered by then.
    const logged = (reply: ScriptedReply) => (call: RecordedCall) => {
      log.push(`model:${call.schemaName ?? ''}`);
      return typeof reply === 'function' ? reply(call) : reply;
    };
    const model = new RecordingChatModel([
      logged(oneNeed),
      logged(routeTo('retrieve')),
      (call) => {
        log.push(`model:${call.schemaName ?? ''}`);
        return { answerable: false, reasons: ['not stated'], missing_information: ['the fee'] };
      },
    ]);
    const agent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });
    try {
      const run = await agent.ask({
        question: 'What is the termination fee of CT-2024-0193?',
        principal: await evident.principalFor('alice'),
        onStep: (event) => log.push(`step:${event.node}`),
      });
      expect(run.status).toBe('refused');
      expect(log).toEqual([
        'step:load_memory',
        'step:rewrite',
        'model:sub_questions',
        'step:decompose',
        'model:route',
        'step:route_question',
        'step:retrieve',
        'step:merge_rerank',
        'model:answerability',
        'step:check_answerability',
        'step:refuse',
        'step:evidence_gate',
        'step:finalize',
      ]);
    } finally {
      await agent.close();
    }
  });
});
