import { randomUUID } from 'node:crypto';
import { AIMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_TEXT } from '../../domain/answer.ts';
import { RecordingChatModel, type RecordedCall } from '../../testing/recording-chat-model.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../testing/sample-corpus-store.ts';
import { passageWith } from '../../testing/rag-model-script.ts';
import type { Evidence } from '../../domain/evidence.ts';
import { modelFinalAnswer } from './model-strategy.ts';
import { reactDeps } from './react-agent.ts';
import { buildReactGraph } from './react-graph.ts';
import { finalAnswerSchema } from './react-tools.ts';

const evidence: Evidence[] = [
  {
    chunk_id: 'contracts/a.md#0',
    doc_id: 'contracts/a.md',
    source: '/corpus/contracts/a.md',
    title: '',
    heading: '',
    text: 'Early termination triggers a termination fee of $48,000. Notice is 90 days.',
    score: 1,
    queries: [],
  },
];
const final = (fields: Record<string, unknown>) =>
  finalAnswerSchema.parse({
    answer: 'The fee is $48,000.',
    answerable: true,
    confidence: 0.9,
    citations: [],
    missing_information: [],
    ...fields,
  });

describe('react model strategy: the final answer read as extract, judge, answer', () => {
  it('refuses below the shared threshold whatever the model’s own answerable says, naming what is missing', () => {
    const answer = modelFinalAnswer(
      final({ sufficiency: 0.2, missing_information: ['the notice period of B'] }),
      evidence,
      'What is the notice period of B?',
    );
    expect(answer).toMatchObject({ answerable: false, citations: [], missing_information: ['the notice period of B'] });
    expect(answer.answer).toContain(REFUSAL_TEXT);
  });

  it('does not take "sufficient" from extracted sentences the evidence does not contain', () => {
    const answer = modelFinalAnswer(
      final({ sufficiency: 0.9, supporting: [{ chunk_id: 'contracts/a.md#0', sentence: 'The fee is $1,000,000.' }] }),
      evidence,
      'What is the fee?',
    );
    expect(answer.answerable).toBe(false);
  });

  it('answers at the threshold and re-points a citation that named the document instead of the chunk', () => {
    const answer = modelFinalAnswer(
      final({
        answerable: false,
        sufficiency: 0.8,
        supporting: [
          { chunk_id: 'contracts/a.md#0', sentence: 'Early termination triggers a termination fee of $48,000.' },
        ],
        citations: [{ chunk_id: 'contracts/a.md', quote: 'triggers a termination fee of $48,000' }],
      }),
      evidence,
      'What is the fee?',
    );
    expect(answer.answerable).toBe(true);
    expect(answer.citations).toEqual([
      {
        chunk_id: 'contracts/a.md#0',
        doc_id: 'contracts/a.md',
        source: '/corpus/contracts/a.md',
        quote: 'triggers a termination fee of $48,000',
      },
    ]);
  });

  it('keeps an answer without a sufficiency as the model gave it', () => {
    expect(modelFinalAnswer(final({ answerable: false, missing_information: ['x'] }), evidence, 'q')).toMatchObject({
      answerable: false,
      answer: 'The fee is $48,000.',
    });
  });
});

describe('react graph with a model judging sufficiency', () => {
  let sample: SampleCorpusStore;
  beforeAll(async () => {
    sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
  });
  afterAll(async () => {
    await sample?.close();
  });

  const toolCall = (name: string, args: Record<string, unknown>) =>
    new AIMessage({
      content: '',
      tool_calls: [{ id: `${name}-${randomUUID().slice(0, 8)}`, name, args, type: 'tool_call' }],
    });

  it('shows passages under their chunk ids and refuses when the model judges them insufficient', async () => {
    const model = new RecordingChatModel([
      toolCall('knowledge_base', { query: 'CT-2023-0077 termination fee' }),
      (call: RecordedCall) => {
        const monthly = passageWith(call, 'CT-2023-0077');
        return toolCall('final_answer', {
          answer: 'The contract states a monthly fee only.',
          answerable: true,
          confidence: 0.6,
          supporting: monthly ? [{ chunk_id: monthly.chunk_id, sentence: monthly.text.split('\n')[0] ?? '' }] : [],
          sufficiency: 0.25,
          citations: [],
          missing_information: ['the termination fee of CT-2023-0077'],
        });
      },
    ]);
    const graph = buildReactGraph(
      { ...reactDeps({ services: sample.evident, chat: { id: 'recording:test', model } }), fusionQueries: 1 },
      { checkpointer: new MemorySaver() },
    );
    const threadId = randomUUID();
    const runId = randomUUID();
    const state = await graph.invoke(
      {
        question: 'What is the termination fee of CT-2023-0077?',
        principal: await sample.evident.principalFor('alice'),
        thread_id: threadId,
        run_id: runId,
      },
      { configurable: { thread_id: threadId, run_id: runId } },
    );
    expect(model.prompts[1]).toMatch(
      /\[chunk_id: contracts\/ct-2023-0077\.md#\d+\] \[doc_id: contracts\/ct-2023-0077\.md\]/,
    );
    expect(model.prompts[0]).toContain('sufficiency');
    expect(state.status).toBe('refused');
    expect(state.answer).toMatchObject({
      answerable: false,
      missing_information: ['the termination fee of CT-2023-0077'],
    });
  });
});
