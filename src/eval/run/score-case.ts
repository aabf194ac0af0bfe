import type { AgentTrace } from '../../runs/run-trace.ts';
import type { Citation } from '../../domain/answer.ts';
import type { EvalCase } from '../cases/eval-case.ts';
import { firstFailure, type LayerName, type LayerResult } from '../layers/layer-result.ts';
import { answeredOf, refusedOf, scoreAnswerability } from '../layers/score-answerability.ts';
import { scoreAnswerExpectations } from '../layers/score-answer.ts';
import { scoreCitations } from '../layers/score-citations.ts';
import { scoreRerank, scoreRetrieval } from '../layers/score-retrieval.ts';
import { scoreRewrite } from '../layers/score-rewrite.ts';
import { scoreSchema } from '../layers/score-schema.ts';
import { scoreSelective, type SelectiveCase } from '../layers/score-selective.ts';
import { scoreTools } from '../layers/score-tools.ts';

/** What a report shows of a run: enough to see why a layer failed, without the evidence texts. */
export interface CaseTrace {
  question: string;
  standalone_question: string | null;
  retrieved_doc_ids: string[] | null;
  evidence_ids: string[] | null;
  answer: string | null;
  answerable: boolean | null;
  /** The answer's own confidence (0–1); null when the run left no answer. */
  confidence: number | null;
  citations: Pick<Citation, 'chunk_id' | 'doc_id' | 'quote'>[];
  tool_calls: { name: string; arguments: Record<string, unknown>; ok: boolean; arguments_valid?: boolean }[] | null;
  status: string;
  errors: string[];
}

export interface CaseResult {
  id: string;
  agent: string;
  tags: string[];
  passed: boolean;
  first_failure: LayerName | null;
  layers: Record<LayerName, LayerResult>;
  latency_ms: number;
  /** Selective question answering: answered or refused, and if answered, strictly right or wrong. */
  selective: SelectiveCase;
  trace: CaseTrace;
}

/** Loose read of an answer that failed the contract, so a report can still show what the agent said. */
const looseText = (answer: unknown): string | null =>
  typeof answer === 'object' && answer !== null && typeof (answer as { answer?: unknown }).answer === 'string'
    ? (answer as { answer: string }).answer
    : null;
const looseConfidence = (answer: unknown): number | null =>
  typeof answer === 'object' && answer !== null && typeof (answer as { confidence?: unknown }).confidence === 'number'
    ? (answer as { confidence: number }).confidence
    : null;

/** Scores every layer of one run of one case and names the first that failed. */
export function scoreCase(evalCase: EvalCase, agent: string, trace: AgentTrace, latencyMs: number): CaseResult {
  const { expect } = evalCase;
  const schema = scoreSchema(trace.answer, trace.status);
  const answer = schema.answer;
  const layers: Record<LayerName, LayerResult> = {
    rewrite: scoreRewrite(expect.standalone_contains, trace.standalone_question),
    retrieval: scoreRetrieval(expect.relevant_docs, trace.retrieved_doc_ids),
    rerank: scoreRerank(expect.relevant_docs, trace.kept_doc_ids),
    answerability: scoreAnswerability(expect.answerable, answeredOf(answer, trace.status), trace.status),
    citations: scoreCitations(expect.cite_docs, answer?.citations ?? null, trace.evidence),
    schema: schema.result,
    answer: scoreAnswerExpectations(
      expect.answer_contains,
      expect.answer_differs_from,
      answer?.answer ?? looseText(trace.answer),
      trace.status,
    ),
    tools: scoreTools(expect.tools, trace.tool_calls),
  };
  const first = firstFailure(layers);
  const answerText = answer?.answer ?? looseText(trace.answer);
  const answerable = answer?.answerable ?? null;
  const confidence = answer?.confidence ?? looseConfidence(trace.answer);
  const waiting = trace.status === 'interrupted' && answerText === null;
  const selective = scoreSelective({
    question: evalCase.question,
    answerable: expect.answerable,
    gold: expect.answer_contains,
    answerText,
    refused: waiting ? null : refusedOf(layers.answerability, answerable, trace.status),
    confidence,
  });
  return {
    id: evalCase.id,
    agent,
    tags: evalCase.tags,
    passed: first === null,
    first_failure: first,
    layers,
    latency_ms: Math.round(latencyMs),
    selective,
    trace: {
      question: evalCase.question,
      standalone_question: trace.standalone_question,
      retrieved_doc_ids: trace.retrieved_doc_ids,
      evidence_ids: trace.evidence?.map((item) => item.chunk_id) ?? null,
      answer: answerText,
      answerable,
      confidence,
      citations: (answer?.citations ?? []).map(({ chunk_id, doc_id, quote }) => ({ chunk_id, doc_id, quote })),
      tool_calls: trace.tool_calls,
      status: trace.status,
      errors: trace.errors.map((error) => `${error.node}: ${error.message} (${error.code})`),
    },
  };
}
