import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evident } from '../../evident.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';
import { oneNeed, routeTo } from '../../testing/rag-model-script.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../testing/sample-corpus-store.ts';
import { SUMMARY_MAX_CHARS, summarizeOffline } from '../core/memory/history-summary.ts';
import { openAgent, type AgentClient } from '../../testing/agent-client.ts';
import type { Turn } from '../../domain/turn.ts';

let sample: SampleCorpusStore;
let evident: Evident;

beforeAll(async () => {
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
  evident = sample.evident;
});

afterAll(async () => {
  await sample?.close();
});

/** The contract is named only in the first turn; the two turns of the window name nothing. */
const OLD_QUESTION = 'Tell me about CT-2024-0193 with Northwind Logistics.';
const history: Turn[] = [
  { role: 'user', content: OLD_QUESTION },
  { role: 'assistant', content: 'A logistics services agreement.' },
  { role: 'user', content: 'Who signs contracts on our side?' },
  { role: 'assistant', content: 'The legal department.' },
];
const WINDOW = 2;

describe('short-term memory: a window and a running summary', () => {
  it('offline: folds turns beyond the window into an extractive summary the rewrite resolves through', async () => {
    const agent = await openAgent(evident, 'rag', { bounds: { rag: { historyWindow: WINDOW } } });
    try {
      const alice = await evident.principalFor('alice');
      const run = await agent.ask({ question: 'And what is its termination fee?', principal: alice, history });
      expect(run.steps[0]?.summary).toBe('2 earlier turns in the thread, 2 older folded into the summary (offline)');
      expect(run.standalone_question).toBe('What is the termination fee of CT-2024-0193?');
      expect(run.answer?.answer).toContain('$48,000');
      const state = (await agent.graph.getState({ configurable: { thread_id: run.thread_id } })).values as {
        history: Turn[];
        history_summary: string;
      };
      expect(state.history_summary).toContain(`The user asked: ${OLD_QUESTION}`);
      expect(state.history_summary).toContain('CT-2024-0193');
      // The checkpointed history is the window plus this run's turn; the next run folds the overflow.
      expect(state.history.map((turn) => turn.content)).not.toContain(OLD_QUESTION);

      // Two runs later the contract has left the window entirely and still resolves.
      const next = await agent.ask({
        question: 'Who are the parties to it?',
        principal: alice,
        threadId: run.thread_id,
      });
      expect(next.standalone_question).toBe('Who are the parties to CT-2024-0193?');
    } finally {
      await agent.close();
    }
  });

  it('with a model: summarises by prompt, and rewrite and generate see the summary, not the old turns', async () => {
    const SUMMARY = 'The user asked about contract CT-2024-0193 (Northwind Logistics) and who signs contracts.';
    const model = new RecordingChatModel();
    const reply = (call: { schemaName?: string; prompt: string }) => {
      switch (call.schemaName) {
        case 'history_summary':
          return { summary: SUMMARY };
        case 'standalone_question':
          return { standalone_question: 'What is the termination fee of CT-2024-0193?' };
        case 'sub_questions':
          return { sub_questions: ['What is the termination fee of CT-2024-0193?'] };
        case 'route':
          return { route: 'retrieve', reason: 'the contracts state it' };
        case 'answerability':
          return { answerable: false, reasons: ['not needed for this test'], missing_information: ['x'] };
        default:
          throw new Error(`unexpected call ${call.schemaName ?? '(plain)'}`);
      }
    };
    model.push(reply, reply, reply, reply, reply);
    const agent = await openAgent(evident, 'rag', {
      chat: { id: 'recording:test', model },
      bounds: { rag: { historyWindow: WINDOW } },
    });
    try {
      const run = await agent.ask({
        question: 'And what is its termination fee?',
        principal: await evident.principalFor('alice'),
        history,
      });
      expect(model.calls.map((call) => call.schemaName)).toEqual([
        'history_summary',
        'standalone_question',
        'sub_questions',
        'route',
        'answerability',
      ]);
      expect(model.calls[0]?.prompt).toContain(OLD_QUESTION);
      const rewritePrompt = model.calls[1]?.prompt ?? '';
      expect(rewritePrompt).toContain(SUMMARY);
      expect(rewritePrompt).toContain('Who signs contracts on our side?');
      expect(rewritePrompt).not.toContain(OLD_QUESTION);
      expect(run.standalone_question).toBe('What is the termination fee of CT-2024-0193?');
      expect(run.steps[0]?.summary).toMatch(/2 older folded into the summary \(model\)/);
    } finally {
      await agent.close();
    }
  });

  it('generate carries the summary and the window, not the old turns', async () => {
    const SUMMARY = 'The user asked about contract CT-2024-0193.';
    const model = new RecordingChatModel([
      { summary: SUMMARY },
      { standalone_question: 'What is the termination fee of CT-2024-0193?' },
      oneNeed,
      routeTo('retrieve'),
      { answerable: true, reasons: ['states it'], missing_information: [] },
      'not json',
      'not json',
      'not json',
    ]);
    const agent = await openAgent(evident, 'rag', {
      chat: { id: 'recording:test', model },
      bounds: { rag: { historyWindow: WINDOW } },
    });
    try {
      // With a model every follow-up is the model's to rewrite (it keeps this one): summary, rewrite, decompose, route,
      // answerability, then generate (which fails on the script's purpose).
      await agent.ask({
        question: 'What is the termination fee of CT-2024-0193?',
        principal: await evident.principalFor('alice'),
        history,
      });
      const generatePrompt = model.calls.find((call) => call.schemaName === 'answer')?.prompt ?? '';
      expect(generatePrompt).toContain(SUMMARY);
      expect(generatePrompt).toContain('The legal department.');
      expect(generatePrompt).not.toContain(OLD_QUESTION);
    } finally {
      await agent.close();
    }
  });

  it('falls back to the offline summary when the model fails', async () => {
    const model = new RecordingChatModel([
      'not json',
      'not json',
      'not json',
      { standalone_question: 'What is the termination fee of CT-2024-0193?' },
      oneNeed,
      routeTo('retrieve'),
      { answerable: false, reasons: [], missing_information: ['x'] },
    ]);
    const agent = await openAgent(evident, 'rag', {
      chat: { id: 'recording:test', model },
      bounds: { rag: { historyWindow: WINDOW } },
    });
    try {
      const run = await agent.ask({
        question: 'What is the termination fee of CT-2024-0193?',
        principal: await evident.principalFor('alice'),
        history,
      });
      expect(run.steps[0]?.summary).toMatch(/\(offline-fallback\)/);
      const state = (await agent.graph.getState({ configurable: { thread_id: run.thread_id } })).values as {
        history_summary: string;
      };
      expect(state.history_summary).toContain('CT-2024-0193');
    } finally {
      await agent.close();
    }
  });

  it('keeps the offline summary bounded, most recent questions and identifiers kept', () => {
    let summary = '';
    for (let i = 0; i < 50; i++) {
      summary = summarizeOffline(summary, [
        { role: 'user', content: `What is the status of TICKET-${1000 + i}? ${'detail '.repeat(40)}` },
      ]);
    }
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(summary).toContain('TICKET-1049');
    expect(summary).not.toContain('status of TICKET-1000?');
  });
});
