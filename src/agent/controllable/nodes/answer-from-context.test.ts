import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../../testing/sample-corpus-store.ts';
import { countOf, keepAll, runControllable, scriptedByStep } from '../../../testing/controllable-run.ts';

let sample: SampleCorpusStore;

beforeAll(async () => {
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
});
afterAll(async () => {
  await sample?.close();
});

const FEE_CHUNK = 'contracts/ct-2024-0193.md#0';
const FEE_SENTENCE =
  'A termination for convenience by the Customer during the first 24 months triggers a termination fee of $48,000.';
const refused = {
  answer: 'I do not know.',
  answerable: false,
  confidence: 0,
  citations: [],
  missing_information: ['the termination fee'],
};

/** One retrieval task then done; the answer step's replies are the test's. */
const script = (answers: Record<string, unknown>[]) =>
  scriptedByStep({
    anonymize: [{ entities: [] }],
    plan: [{ plan: ['Find the termination fee of CT-2024-0193'] }],
    task_handler: [{ tool: 'retrieve_chunks', query: 'termination fee CT-2024-0193' }],
    keep_relevant: [keepAll],
    relevance_check: [{ relevant: true, reason: 'about the fee' }],
    answer_from_context: answers,
    groundedness_check: [{ grounded: true, reason: 'stated' }],
    replan: [{ done: true, plan: [] }],
    final_answer: [refused],
  });

describe('controllable answer_from_context with a model: extract, judge, answer', () => {
  it('keeps the extracted sentences the evidence contains as the task’s support, by the item id shown in the prompt', async () => {
    const model = script([
      {
        supporting: [
          { id: FEE_CHUNK, sentence: FEE_SENTENCE },
          { id: FEE_CHUNK, sentence: 'The termination fee is waived for affiliates of the Customer.' },
        ],
        sufficiency: 0.9,
        answer: 'The termination fee is $48,000.',
        missing_information: [],
      },
    ]);
    const run = await runControllable(
      sample.evident,
      'What is the termination fee of CT-2024-0193?',
      await sample.evident.principalFor('alice'),
      { model },
    );
    const prompt = model.calls.find((call) => call.schemaName === 'answer_from_context')?.prompt ?? '';
    expect(prompt).toContain(`[id: ${FEE_CHUNK}]`);
    expect(prompt).toMatch(/supporting[\s\S]*sufficiency/);
    const step = run.state.past_steps[0];
    expect(step?.outcome).toBe('answered');
    expect(step?.response).toBe('The termination fee is $48,000.');
    expect(step?.support).toEqual([{ chunk_id: FEE_CHUNK, sentence: FEE_SENTENCE }]);
  });

  it('gives the task no answer when the model judges its extraction insufficient', async () => {
    const insufficient = {
      supporting: [],
      sufficiency: 0.2,
      answer: 'Probably about $50,000.',
      missing_information: ['the termination fee'],
    };
    const model = script([insufficient, insufficient, insufficient]);
    const run = await runControllable(
      sample.evident,
      'What is the termination fee of CT-2024-0193?',
      await sample.evident.principalFor('alice'),
      { model },
    );
    const step = run.state.past_steps[0];
    expect(step?.outcome).toBe('not_grounded');
    expect(step?.response).toBe('');
    expect(step?.support).toEqual([]);
    // An empty answer is not grounded without asking the model.
    expect(model.calls.filter((call) => call.schemaName === 'groundedness_check')).toHaveLength(0);
    expect(countOf(run, 'answer_from_context')).toBeGreaterThan(0);
    expect(run.state.answer?.answerable).toBe(false);
  });
});
