import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_TEXT } from '../../domain/answer.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../testing/sample-corpus-store.ts';
import { openAgentRuntime } from '../agent-runtime.ts';
import { chooseToolOffline } from './nodes/task-handler.ts';
import { countOf, nodesOf, runControllable } from '../../testing/controllable-run.ts';
import { OFFLINE_LABEL } from '../offline-qa/extractive-answer.ts';

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

describe('controllable graph, offline, on the sample corpus', () => {
  it('plans, retrieves, answers and cites the termination fee of CT-2024-0193', async () => {
    const run = await runControllable(
      sample.evident,
      'What is the termination fee of CT-2024-0193?',
      await as('alice'),
    );
    const { state } = run;
    expect(state.status).toBe('answered');
    expect(state.mode).toBe('offline');
    expect(state.anonymized_question).toBe('What is the termination fee of ENTITY_1?');
    expect(state.mapping).toEqual({ ENTITY_1: 'CT-2024-0193' });
    expect(state.answer?.answer).toContain('$48,000');
    expect(state.answer?.answer).toContain(OFFLINE_LABEL);
    expect(state.answer?.citations[0]).toMatchObject({
      doc_id: 'contracts/ct-2024-0193.md',
      quote: expect.stringContaining('$48,000'),
    });
    expect(state.evidence.map((item) => item.chunk_id)).toContain(state.answer?.citations[0]?.chunk_id);
    expect(state.past_steps.map((step) => [step.tool, step.outcome])).toEqual([
      ['retrieve_chunks', 'answered'],
      ['answer_from_context', 'answered'],
    ]);
    expect(nodesOf(run).slice(0, 7)).toEqual([
      'start_run',
      'rewrite',
      'anonymize',
      'planner',
      'deanonymize_plan',
      'task_handler',
      'retrieve_chunks',
    ]);
    expect(nodesOf(run).slice(-4)).toEqual(['final_answer', 'citation_check', 'evidence_gate', 'finalize']);
    expect(run.events.map((event) => event.node)).toEqual(nodesOf(run));
  });

  // Known regression of the fitted reader (issue 13): controllable's task answers "the termination fee" with the
  // contract's licence fee (rag and react refuse); `it.fails` so the fix shows up as this test starting to pass.
  it.fails('refuses with what is missing when the evidence mentions the contract but not the fee (CT-2023-0077)', async () => {
    const { state } = await runControllable(
      sample.evident,
      'What is the termination fee of CT-2023-0077?',
      await as('alice'),
    );
    expect(state.status).toBe('refused');
    expect(state.answer?.answer).toContain(REFUSAL_TEXT);
    expect(state.answer?.citations).toEqual([]);
    expect(state.answer?.missing_information).toEqual([
      'the termination fee of CT-2023-0077 (the evidence found mentions CT-2023-0077 but states no termination fee)',
    ]);
    expect(state.answer?.answer).not.toContain('48,000');
  });

  it("routes an overview to the summaries and answers with the summary's own sentences", async () => {
    const run = await runControllable(sample.evident, 'Summarize the travel and expense policy', await as('alice'));
    expect(run.state.past_steps[0]?.tool).toBe('retrieve_summaries');
    expect(run.state.tool_calls[0]).toMatchObject({ name: 'retrieve_summaries', ok: true });
    expect(run.state.status).toBe('answered');
    expect(run.state.answer?.citations.every((citation) => citation.doc_id === 'policies/expenses.md')).toBe(true);
    expect(run.state.answer?.answer).toContain('$220');
  });

  it('routes a question about wording to the quotes index', async () => {
    const run = await runControllable(sample.evident, 'What does CT-2024-0193 say about liability?', await as('alice'));
    expect(run.state.past_steps[0]?.tool).toBe('retrieve_quotes');
    expect(run.state.status).toBe('answered');
    expect(run.state.answer?.citations[0]?.quote).toContain('capped at $500K');
  });

  it('chooses the tool offline by what the task asks', () => {
    expect(chooseToolOffline('Summarize the travel policy')).toBe('retrieve_summaries');
    expect(chooseToolOffline('What did the CEO say about layoffs?')).toBe('retrieve_quotes');
    expect(chooseToolOffline('Answer the question from the context: who won?')).toBe('answer_from_context');
    expect(chooseToolOffline('What is the notice period of CT-2024-0193?')).toBe('retrieve_chunks');
  });

  it('never shows bob a denied document through any of the three indexes, in state, events or answer', async () => {
    const bob = await as('bob');
    for (const question of [
      'What is the termination fee of CT-2024-0193?',
      'Summarize the Master Services Agreement CT-2024-0193',
      'What does CT-2024-0193 say about liability?',
    ]) {
      const run = await runControllable(sample.evident, question, bob);
      expect(run.state.status).toBe('refused');
      const seen = JSON.stringify({ state: run.state, events: run.events });
      for (const secret of ['Northwind', '48,000', '500K', 'contracts/ct-2024-0193.md'])
        expect(seen, `${question}: ${secret}`).not.toContain(secret);
    }
  });
});

describe('controllable through the agent runtime', () => {
  it('is served as the `controllable` agent and records the run', async () => {
    const runtime = await openAgentRuntime(sample.evident);
    try {
      const definition = runtime.runs.agent('controllable');
      expect(definition.name).toBe('controllable');
      const alice = await as('alice');
      const run = await runtime.runs.start({
        agent: 'controllable',
        threadId: randomUUID(),
        principal: alice,
        action: { kind: 'ask', question: 'What is the termination fee of CT-2024-0193?', history: [] },
        createThread: true,
      });
      const done = await runtime.runs.wait(run.runId, AbortSignal.timeout(30_000));
      expect(done?.status).toBe('answered');
      const { snapshot } = await runtime.runs.threadState(run.threadId, alice);
      const values = definition.view(snapshot?.values as Record<string, unknown>);
      expect(JSON.stringify(values.answer)).toContain('$48,000');
      expect(values.messages).toHaveLength(2);
    } finally {
      await runtime.close();
    }
  });
});
