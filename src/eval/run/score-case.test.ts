import { describe, expect, it } from 'vitest';
import type { AgentTrace } from '../../runs/run-trace.ts';
import { evalCaseSchema } from '../cases/eval-case.ts';
import { traceFromSharedState, withPendingActions } from './agent-trace-of.ts';
import { scoreCase } from './score-case.ts';
import { summarizeAgent } from './summarize-results.ts';

const evidence = [
  {
    chunk_id: 'contracts/ct.md#2',
    doc_id: 'contracts/ct.md',
    text: 'A termination for convenience triggers a termination fee of $48,000.',
  },
];
const answer = {
  answer: 'The termination fee is $48,000 [1].',
  answerable: true,
  confidence: 0.8,
  citations: [
    { chunk_id: 'contracts/ct.md#2', doc_id: 'contracts/ct.md', source: 'ct.md', quote: 'termination fee of $48,000' },
  ],
  missing_information: [],
};
const trace = (overrides: Partial<AgentTrace> = {}): AgentTrace => ({
  standalone_question: 'What is the termination fee of CT-2024-0193?',
  retrieved_doc_ids: ['policies/x.md', 'contracts/ct.md'],
  kept_doc_ids: ['contracts/ct.md'],
  evidence,
  answer,
  tool_calls: [],
  status: 'answered',
  errors: [],
  ...overrides,
});
const evalCase = evalCaseSchema.parse({
  id: 'fee',
  user: 'alice',
  question: 'And its termination fee?',
  expect: {
    standalone_contains: ['CT-2024-0193'],
    relevant_docs: ['contracts/ct.md'],
    answerable: true,
    answer_contains: ['48000'],
    cite_docs: ['contracts/ct.md'],
    tools: { forbidden: ['save_memory'] },
  },
});

describe('scoreCase', () => {
  it('scores every layer of a good run as a pass, with its metrics and a compact trace', () => {
    const result = scoreCase(evalCase, 'rag', trace(), 123.4);
    expect(result).toMatchObject({ id: 'fee', agent: 'rag', passed: true, first_failure: null, latency_ms: 123 });
    expect(result.layers.retrieval.metrics).toEqual({ hit_at_10: 1, recall_at_10: 1, mrr_at_10: 0.5 });
    expect(result.layers.tools.status).toBe('pass');
    expect(result.trace).toMatchObject({
      evidence_ids: ['contracts/ct.md#2'],
      answerable: true,
      citations: [{ quote: 'termination fee of $48,000' }],
    });
  });

  it('names the first failing layer when several fail', () => {
    const result = scoreCase(
      evalCase,
      'rag',
      trace({ kept_doc_ids: ['policies/x.md'], answer: { ...answer, answer: 'It is $4,800 [1].' } }),
      10,
    );
    expect(result.layers.rerank.status).toBe('fail');
    expect(result.layers.answer.status).toBe('fail');
    expect(result).toMatchObject({ passed: false, first_failure: 'rerank' });
  });

  it('fails schema for an answer that breaks the contract, yet shows its text', () => {
    const result = scoreCase(
      evalCase,
      'rag',
      trace({ answer: { answer: 'The fee is $48,000.', answerable: true } }),
      10,
    );
    expect(result.layers.schema.status).toBe('fail');
    expect(result.layers.answer.status).toBe('pass');
    expect(result.trace.answer).toBe('The fee is $48,000.');
    // Without a valid answer, citations and answerability cannot be read: the first failure is answerability.
    expect(result.first_failure).toBe('answerability');
  });

  it('reports the layers an agent does not expose as n/a, never as pass or fail', () => {
    const shared = traceFromSharedState({ answer, evidence, status: 'answered', errors: [] });
    const result = scoreCase(evalCase, 'other', shared, 10);
    expect(result.layers.rewrite).toMatchObject({ status: 'n/a', detail: 'not exposed by the agent' });
    expect(result.layers.retrieval).toMatchObject({ status: 'n/a', detail: 'not exposed by the agent' });
    expect(result.layers.tools).toMatchObject({ status: 'n/a', detail: 'not exposed by the agent' });
    expect(result.layers.rerank.status).toBe('pass');
    expect(result.passed).toBe(true);
  });
});

describe('traceFromSharedState', () => {
  it("reads the shared fields and checks known tools' arguments", () => {
    const shared = traceFromSharedState({
      standalone_question: 'Q',
      evidence: [...evidence, { chunk_id: 'contracts/ct.md#3', doc_id: 'contracts/ct.md', text: 'x' }],
      tool_calls: [
        { name: 'table_query', arguments: { sql: '' }, ok: false },
        { name: 'table_query', arguments: { sql: 'SELECT 1' }, ok: true },
        { name: 'custom', arguments: {}, ok: true },
      ],
      status: 'answered',
      errors: [{ node: 'generate', code: 'x', message: 'm' }],
    });
    expect(shared.kept_doc_ids).toEqual(['contracts/ct.md']);
    expect(shared.retrieved_doc_ids).toBeNull();
    expect(shared.tool_calls?.map((call) => call.arguments_valid)).toEqual([false, true, undefined]);
    expect(shared.errors).toEqual([{ node: 'generate', code: 'x', message: 'm' }]);
  });
});

describe('withPendingActions', () => {
  it('counts a proposed side effect in the trajectory as pending, and the run as interrupted', () => {
    const waiting = withPendingActions(traceFromSharedState({ status: 'running', tool_calls: [] }), [
      { tool: 'save_memory', args: { text: 'I prefer bullet points' }, approval_id: 'r:1' },
    ]);
    expect(waiting.status).toBe('interrupted');
    expect(waiting.tool_calls).toEqual([
      {
        name: 'save_memory',
        arguments: { text: 'I prefer bullet points' },
        ok: false,
        pending: true,
        arguments_valid: true,
      },
    ]);
    const remember = evalCaseSchema.parse({
      id: 'm',
      user: 'bob',
      question: 'Remember that …',
      expect: { answerable: true, answer_contains: ['saved'], tools: { expected: ['save_memory'] } },
    });
    const result = scoreCase(remember, 'rag', waiting, 5);
    expect(result).toMatchObject({
      passed: true,
      layers: {
        schema: { status: 'n/a' },
        answerability: { status: 'n/a' },
        answer: { status: 'n/a' },
        tools: { status: 'pass' },
      },
    });
  });
});

describe('summarizeAgent', () => {
  it('aggregates pass rates, metric means, refusal metrics, latency and first failures', () => {
    const refuseCase = evalCaseSchema.parse({ id: 'no', user: 'bob', question: 'Q?', expect: { answerable: false } });
    const refused = { ...answer, answer: "I don't know.", answerable: false, citations: [] };
    const results = [
      scoreCase(evalCase, 'rag', trace(), 100),
      scoreCase(evalCase, 'rag', trace({ retrieved_doc_ids: ['policies/x.md'] }), 300),
      scoreCase(refuseCase, 'rag', trace({ answer: refused, status: 'refused' }), 200),
      scoreCase(evalCase, 'rag', trace({ answer: refused, status: 'refused' }), 400),
    ];
    const summary = summarizeAgent(results);
    expect(summary.overall).toMatchObject({
      cases: 4,
      passed: 2,
      pass_rate: 0.5,
      latency_p50_ms: 200,
      latency_p95_ms: 400,
      first_failures: { retrieval: 1, answerability: 1 },
    });
    expect(summary.retrieval).toMatchObject({
      scored: 3,
      passed: 2,
      pass_rate: 0.6667,
      not_applicable: 1,
      hit_at_10: 0.6667,
      recall_at_10: 0.6667,
    });
    expect(summary.answerability).toMatchObject({
      scored: 4,
      refusal_precision: 0.5,
      refusal_recall: 1,
      refusal_f1: 0.6667,
      false_refusal_rate: 0.3333,
    });
    expect(summary.rewrite.pass_rate).toBe(1);
    expect(summary.answerability).toMatchObject({ rejection_rate: 1, unanswerable_cases: 1, answerable_cases: 3 });
    expect(summary.answer).toMatchObject({ accuracy: 0.6667, accuracy_cases: 3 });
  });

  it('counts a refusal as inaccurate even when its text holds the gold answer', () => {
    const refusedWithGold = {
      ...answer,
      answer: 'I cannot confirm the $48,000 fee.',
      answerable: false,
      citations: [],
    };
    const results = [
      scoreCase(evalCase, 'rag', trace(), 10),
      scoreCase(evalCase, 'rag', trace({ answer: refusedWithGold, status: 'refused' }), 10),
    ];
    expect(results[1]?.layers.answer.status).toBe('pass');
    const summary = summarizeAgent(results);
    expect(summary.answer).toMatchObject({ containment: 1, accuracy: 0.5, accuracy_cases: 2 });
    expect(summary.answerability).toMatchObject({
      rejection_rate: null,
      unanswerable_cases: 0,
      false_refusal_rate: 0.5,
    });
  });
});
