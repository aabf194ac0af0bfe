import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../testing/sample-corpus-store.ts';
import { countOf, keepAll, nodesOf, runControllable, scriptedByStep } from '../../testing/controllable-run.ts';

let sample: SampleCorpusStore;

beforeAll(async () => {
  sample = await openSampleCorpusStore([
    { name: 'alice', groups: ['legal'] },
    { name: 'bob', groups: ['engineering'] },
  ]);
});
afterAll(async () => {
  await sample?.close();
});

const as = (name: string) => sample.evident.principalFor(name);
const FEE_SENTENCE =
  'A termination for convenience by the Customer during the first 24 months triggers a termination fee of $48,000.';
const feeAnswer = {
  answer: 'The termination fee is $48,000.',
  answerable: true,
  confidence: 0.9,
  citations: [
    { chunk_id: 'contracts/ct-2024-0193.md#0', doc_id: 'contracts/ct-2024-0193.md', source: 'x', quote: FEE_SENTENCE },
  ],
  missing_information: [],
};
const promptsOf = (model: ReturnType<typeof scriptedByStep>, step: string) =>
  model.calls.filter((call) => call.schemaName === step).map((call) => call.prompt);

describe('controllable graph with a chat model', () => {
  it('plans on the anonymized question and acts on the de-anonymized plan', async () => {
    const model = scriptedByStep({
      anonymize: [
        {
          entities: [
            { text: 'CT-2024-0193', type: 'identifier' },
            { text: 'Northwind Logistics', type: 'organisation' },
            { text: 'Atlantis', type: 'name' },
          ],
        },
      ],
      plan: [{ plan: ['Find the termination fee of ENTITY_2 agreed with ENTITY_1', 'Answer the question'] }],
      task_handler: [
        { tool: 'retrieve_chunks', query: 'termination fee CT-2024-0193 Northwind Logistics' },
        { tool: 'answer_from_context', query: 'termination fee' },
      ],
      keep_relevant: [keepAll],
      relevance_check: [{ relevant: true, reason: 'states the fee' }],
      answer_from_context: [{ answer: 'The fee is $48,000.' }, { answer: 'The termination fee is $48,000.' }],
      groundedness_check: [
        { grounded: true, reason: 'stated' },
        { grounded: true, reason: 'stated' },
      ],
      replan: [
        { done: false, plan: ['Answer the question'] },
        { done: true, plan: [] },
      ],
      final_answer: [feeAnswer],
    });
    const question = 'What is the termination fee Northwind Logistics agreed in CT-2024-0193?';
    const run = await runControllable(sample.evident, question, await as('alice'), { model });
    const [planning] = promptsOf(model, 'plan');
    expect(planning).toContain('What is the termination fee ENTITY_1 agreed in ENTITY_2?');
    for (const name of ['Northwind', 'CT-2024-0193', '2024']) expect(planning).not.toContain(name);
    // An entity the question does not contain is not a variable.
    expect(run.state.mapping).toEqual({ ENTITY_1: 'Northwind Logistics', ENTITY_2: 'CT-2024-0193' });
    const plan = run.events.find((event) => event.node === 'deanonymize_plan') as { plan?: string[] };
    expect(plan.plan).toEqual([
      'Find the termination fee of CT-2024-0193 agreed with Northwind Logistics',
      'Answer the question',
    ]);
    expect(promptsOf(model, 'task_handler')[0]).toContain(
      'Task: Find the termination fee of CT-2024-0193 agreed with Northwind Logistics',
    );
    expect(run.state.past_steps[0]?.task).toBe(
      'Find the termination fee of CT-2024-0193 agreed with Northwind Logistics',
    );
    expect(run.state.status).toBe('answered');
    expect(run.state.mode).toBe('fake:recording');
    expect(run.state.answer?.citations).toHaveLength(1);
    expect(model.calls.filter((call) => !call.schemaName)).toEqual([]);
  });

  it('routes tasks to each of the four tools', async () => {
    const model = scriptedByStep({
      anonymize: [{ entities: [] }],
      plan: [{ plan: ['Find the fee', 'Find the overview', 'Find the wording', 'Answer'] }],
      task_handler: [
        { tool: 'retrieve_chunks', query: 'termination fee' },
        { tool: 'retrieve_summaries', query: 'master services agreement' },
        { tool: 'retrieve_quotes', query: 'liability capped' },
        { tool: 'answer_from_context', query: 'What is the termination fee?' },
      ],
      keep_relevant: [keepAll, keepAll, keepAll],
      relevance_check: [
        { relevant: true, reason: '' },
        { relevant: true, reason: '' },
        { relevant: true, reason: '' },
      ],
      answer_from_context: [{ answer: 'a' }, { answer: 'b' }, { answer: 'c' }, { answer: 'The fee is $48,000.' }],
      groundedness_check: Array.from({ length: 4 }, () => ({ grounded: true, reason: '' })),
      replan: [
        { done: false, plan: ['Find the overview', 'Find the wording', 'Answer'] },
        { done: false, plan: ['Find the wording', 'Answer'] },
        { done: false, plan: ['Answer'] },
        { done: true, plan: [] },
      ],
      final_answer: [feeAnswer],
    });
    const run = await runControllable(sample.evident, 'What is the termination fee?', await as('alice'), { model });
    expect(run.state.past_steps.map((step) => step.tool)).toEqual([
      'retrieve_chunks',
      'retrieve_summaries',
      'retrieve_quotes',
      'answer_from_context',
    ]);
    expect(run.state.tool_calls.map((call) => call.name)).toEqual([
      'retrieve_chunks',
      'retrieve_summaries',
      'retrieve_quotes',
    ]);
    for (const node of ['retrieve_chunks', 'retrieve_summaries', 'retrieve_quotes']) expect(countOf(run, node)).toBe(1);
    // The answer task answers from everything kept: its prompt holds a summary and a quote.
    const lastAnswer = promptsOf(model, 'answer_from_context').at(-1) ?? '';
    expect(lastAnswer).toMatch(/\[summary of /);
    expect(lastAnswer).toMatch(/\[quote of /);
    expect(run.state.status).toBe('answered');
  });

  it('rewrites the query when nothing relevant comes back, at most maxRelevanceRetries times, then gives the task up', async () => {
    const model = scriptedByStep({
      anonymize: [{ entities: [] }],
      plan: [{ plan: ['Find the fee'] }],
      task_handler: [{ tool: 'retrieve_summaries', query: 'fee' }],
      keep_relevant: [keepAll, keepAll, keepAll],
      relevance_check: [
        { relevant: false, reason: 'off topic' },
        { relevant: false, reason: 'off topic' },
        { relevant: false, reason: 'off topic' },
      ],
      rewrite_query: [{ query: 'termination fee' }, { query: 'fee for early termination' }],
      replan: [{ done: true, plan: [] }],
      final_answer: [
        {
          answer: 'No.',
          answerable: false,
          confidence: 0,
          citations: [],
          missing_information: ['the termination fee'],
        },
      ],
    });
    const run = await runControllable(sample.evident, 'What is the termination fee?', await as('alice'), {
      model,
      deps: { maxRelevanceRetries: 2 },
    });
    expect(countOf(run, 'retrieve_summaries')).toBe(3);
    expect(countOf(run, 'rewrite_query')).toBe(2);
    expect(countOf(run, 'relevance_check')).toBe(3);
    expect(countOf(run, 'answer_from_context')).toBe(0);
    expect(run.state.tool_calls.map((call) => call.arguments.query)).toEqual([
      'fee',
      'termination fee',
      'fee for early termination',
    ]);
    expect(run.state.past_steps[0]?.outcome).toBe('no_relevant_content');
    expect(run.state.status).toBe('refused');
    expect(run.state.answer?.missing_information).toEqual(['the termination fee']);
  });

  it('answers again when the answer is not grounded, at most maxGroundednessRetries times', async () => {
    const model = scriptedByStep({
      anonymize: [{ entities: [] }],
      plan: [{ plan: ['Find the fee'] }],
      task_handler: [{ tool: 'retrieve_chunks', query: 'termination fee CT-2024-0193' }],
      keep_relevant: [keepAll],
      relevance_check: [{ relevant: true, reason: '' }],
      answer_from_context: [{ answer: 'The fee is one million euros.' }, { answer: 'The fee is two million euros.' }],
      groundedness_check: [
        { grounded: false, reason: 'not stated' },
        { grounded: false, reason: 'not stated' },
      ],
      replan: [{ done: true, plan: [] }],
      final_answer: [feeAnswer],
    });
    const run = await runControllable(
      sample.evident,
      'What is the termination fee of CT-2024-0193?',
      await as('alice'),
      { model, deps: { maxGroundednessRetries: 1 } },
    );
    expect(countOf(run, 'answer_from_context')).toBe(2);
    expect(countOf(run, 'groundedness_check')).toBe(2);
    expect(promptsOf(model, 'answer_from_context')[1]).toContain('Rejected answer: The fee is one million euros.');
    expect(run.state.past_steps[0]).toMatchObject({ outcome: 'not_grounded', response: '' });
    expect(run.state.groundedness_retries).toBe(1);
  });

  it('stops replanning at maxReplans whatever the planner says, and still answers', async () => {
    const loop = () => ({ done: false, plan: ['Look once more'] });
    const model = scriptedByStep({
      anonymize: [{ entities: [] }],
      plan: [{ plan: ['Look'] }],
      task_handler: Array.from({ length: 3 }, () => ({
        tool: 'retrieve_chunks',
        query: 'termination fee CT-2024-0193',
      })),
      keep_relevant: [keepAll, keepAll, keepAll],
      relevance_check: Array.from({ length: 3 }, () => ({ relevant: true, reason: '' })),
      answer_from_context: Array.from({ length: 3 }, () => ({ answer: 'The fee is $48,000.' })),
      groundedness_check: Array.from({ length: 3 }, () => ({ grounded: true, reason: '' })),
      replan: [loop, loop, loop, loop],
      final_answer: [feeAnswer],
    });
    const run = await runControllable(
      sample.evident,
      'What is the termination fee of CT-2024-0193?',
      await as('alice'),
      { model, deps: { maxReplans: 3 } },
    );
    expect(countOf(run, 'replan')).toBe(3);
    expect(countOf(run, 'task_handler')).toBe(3);
    expect(run.state.steps.find((step) => step.node === 'replan' && /bound of 3/.test(step.summary))).toBeDefined();
    expect(nodesOf(run).slice(-4)).toEqual(['final_answer', 'citation_check', 'evidence_gate', 'finalize']);
    expect(run.state.status).toBe('answered');
  });

  it('asks for the final answer again when every citation is dropped, then refuses', async () => {
    const bad = {
      ...feeAnswer,
      citations: [{ ...feeAnswer.citations[0], quote: 'a sentence the contract does not contain' }],
    };
    const model = scriptedByStep({
      anonymize: [{ entities: [] }],
      plan: [{ plan: ['Find the fee'] }],
      task_handler: [{ tool: 'retrieve_chunks', query: 'termination fee CT-2024-0193' }],
      keep_relevant: [keepAll],
      relevance_check: [{ relevant: true, reason: '' }],
      answer_from_context: [{ answer: 'The fee is $48,000.' }],
      groundedness_check: [{ grounded: true, reason: '' }],
      replan: [{ done: true, plan: [] }],
      final_answer: [bad, bad],
    });
    const run = await runControllable(
      sample.evident,
      'What is the termination fee of CT-2024-0193?',
      await as('alice'),
      { model },
    );
    expect(countOf(run, 'final_answer')).toBe(2);
    expect(promptsOf(model, 'final_answer')[1]).toContain('quote not found');
    expect(run.state.status).toBe('refused');
    expect(run.state.answer?.citations).toEqual([]);
  });

  it('uses the offline strategy, and records the error, when the model keeps answering out of schema', async () => {
    const steps = [
      'anonymize',
      'plan',
      'task_handler',
      'keep_relevant',
      'relevance_check',
      'rewrite_query',
      'answer_from_context',
      'groundedness_check',
      'replan',
      'final_answer',
    ];
    const model = scriptedByStep(
      Object.fromEntries(steps.map((step) => [step, Array.from({ length: 30 }, () => 'not json')])),
      300,
    );
    const run = await runControllable(sample.evident, 'What is the notice period of CT-2024-0193?', await as('alice'), {
      model,
      deps: { maxSchemaRetries: 2 },
    });
    expect(run.state.errors[0]).toMatchObject({ node: 'anonymize', code: 'structured_output_invalid' });
    expect(run.state.steps.find((step) => step.node === 'anonymize')?.summary).toContain('offline after a model error');
    expect(run.state.anonymized_question).toBe('What is the notice period of ENTITY_1?');
    // Every model step fell back; the run still ends with the offline answer, labelled as a model run.
    expect(new Set(run.state.errors.map((error) => error.node)).size).toBeGreaterThanOrEqual(5);
    expect(run.state.status).toBe('answered');
    expect(run.state.answer?.answer).toContain('90 days');
  });

  it("never puts a denied document's chunk, summary or quote text into a prompt, an event or the answer", async () => {
    const model = scriptedByStep({
      anonymize: [{ entities: [{ text: 'CT-2024-0193', type: 'identifier' }] }],
      plan: [{ plan: ['Find the fee', 'Summarize the agreement', 'Quote the liability clause', 'Answer'] }],
      task_handler: [
        { tool: 'retrieve_chunks', query: 'CT-2024-0193 termination fee Northwind Logistics' },
        { tool: 'retrieve_summaries', query: 'Master Services Agreement CT-2024-0193 Northwind' },
        { tool: 'retrieve_quotes', query: 'liability capped CT-2024-0193' },
        { tool: 'answer_from_context', query: 'termination fee' },
      ],
      keep_relevant: [keepAll, keepAll, keepAll],
      relevance_check: Array.from({ length: 3 }, () => ({ relevant: true, reason: '' })),
      rewrite_query: [{ query: 'CT-2024-0193' }, { query: 'Northwind' }],
      answer_from_context: Array.from({ length: 4 }, () => ({ answer: 'Not in the context.' })),
      groundedness_check: Array.from({ length: 4 }, () => ({ grounded: true, reason: '' })),
      replan: [
        { done: false, plan: ['Summarize the agreement', 'Quote the liability clause', 'Answer'] },
        { done: false, plan: ['Quote the liability clause', 'Answer'] },
        { done: false, plan: ['Answer'] },
        { done: true, plan: [] },
      ],
      final_answer: [
        {
          answer: 'I do not know.',
          answerable: false,
          confidence: 0,
          citations: [],
          missing_information: ['the termination fee'],
        },
      ],
    });
    const run = await runControllable(sample.evident, 'What is the termination fee of CT-2024-0193?', await as('bob'), {
      model,
    });
    expect(run.state.tool_calls.map((call) => call.name)).toEqual(
      expect.arrayContaining(['retrieve_chunks', 'retrieve_summaries', 'retrieve_quotes']),
    );
    const seen = JSON.stringify({
      prompts: model.prompts,
      events: run.events,
      answer: run.state.answer,
      state: run.state,
    });
    for (const secret of [
      'Northwind Logistics GmbH',
      '48,000',
      '$500K',
      '12,500',
      'contracts/ct-2024-0193.md',
      'Helios',
      '0x7a25f3',
    ])
      expect(seen, secret).not.toContain(secret);
    expect(run.state.status).toBe('refused');
  });
});
