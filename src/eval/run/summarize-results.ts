import { mean, percentile } from '../metrics/ranking-metrics.ts';
import { LAYERS, type LayerName } from '../layers/layer-result.ts';
import { refusalMetrics, refusedOf as refusedReading } from '../layers/score-answerability.ts';
import type { CaseResult } from './score-case.ts';
import { summarizeSelective, type SelectiveSummary } from './summarize-selective.ts';

/** A layer over a set of cases: how many were scored and passed, and the mean of each per-case metric. */
export interface LayerSummary {
  scored: number;
  passed: number;
  /** Null when no case scored the layer (every case `n/a`). */
  pass_rate: number | null;
  not_applicable: number;
  [metric: string]: number | null;
}

export interface OverallSummary {
  cases: number;
  passed: number;
  pass_rate: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
  /** How many cases first failed at each layer. */
  first_failures: Partial<Record<LayerName, number>>;
}

export type AgentSummary = { overall: OverallSummary; selective: SelectiveSummary } & Record<LayerName, LayerSummary>;

const round = (value: number, digits = 4): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** Whether the run refused: the answerability layer's reading when it scored, else the answer's own flag or status. */
const refusedOf = (result: CaseResult): boolean =>
  refusedReading(result.layers.answerability, result.trace.answerable, result.trace.status);

/**
 * RGB's accuracy: of the cases with an expected answer that are not expected to be refused, the share whose answer
 * contains it all; a refusal counts as wrong even when its text happens to hold the gold string.
 */
function accuracyOf(scored: readonly CaseResult[]): { accuracy: number | null; accuracy_cases: number } {
  const eligible = scored.filter((result) => result.layers.answerability.metrics?.expected_refusal !== 1);
  const accurate = eligible.filter((result) => result.layers.answer.status === 'pass' && !refusedOf(result)).length;
  return { accuracy: eligible.length ? round(accurate / eligible.length) : null, accuracy_cases: eligible.length };
}

function summarizeLayer(layer: LayerName, results: readonly CaseResult[]): LayerSummary {
  const scored = results.filter((result) => result.layers[layer].status !== 'n/a');
  const passed = scored.filter((result) => result.layers[layer].status === 'pass').length;
  const summary: LayerSummary = {
    scored: scored.length,
    passed,
    pass_rate: scored.length ? round(passed / scored.length) : null,
    not_applicable: results.length - scored.length,
  };
  const metricNames = [...new Set(scored.flatMap((result) => Object.keys(result.layers[layer].metrics ?? {})))];
  if (layer === 'answerability') {
    const perCase = scored.map((result) => ({
      expected_refusal: result.layers.answerability.metrics?.expected_refusal ?? 0,
      refused: result.layers.answerability.metrics?.refused ?? 0,
    }));
    for (const [name, value] of Object.entries(refusalMetrics(perCase)))
      summary[name] = value === null ? null : round(value);
    return summary;
  }
  for (const name of metricNames) {
    const values = scored
      .map((result) => result.layers[layer].metrics?.[name])
      .filter((value): value is number => value !== undefined);
    summary[name] = round(mean(values));
  }
  if (layer === 'answer') Object.assign(summary, accuracyOf(scored));
  return summary;
}

/** Pass rates, layer metrics and latency of one agent's results. */
export function summarizeAgent(results: readonly CaseResult[]): AgentSummary {
  const latencies = results.map((result) => result.latency_ms);
  const firstFailures: Partial<Record<LayerName, number>> = {};
  for (const result of results)
    if (result.first_failure) firstFailures[result.first_failure] = (firstFailures[result.first_failure] ?? 0) + 1;
  const passed = results.filter((result) => result.passed).length;
  const overall: OverallSummary = {
    cases: results.length,
    passed,
    pass_rate: results.length ? round(passed / results.length) : 0,
    latency_p50_ms: Math.round(percentile(latencies, 50)),
    latency_p95_ms: Math.round(percentile(latencies, 95)),
    first_failures: firstFailures,
  };
  return {
    overall,
    ...(Object.fromEntries(LAYERS.map((layer) => [layer, summarizeLayer(layer, results)])) as Record<
      LayerName,
      LayerSummary
    >),
    selective: summarizeSelective(results.map((result) => result.selective)),
  };
}

/** One summary per agent, in the order the agents first appear in the results. */
export function summarizeResults(results: readonly CaseResult[]): Record<string, AgentSummary> {
  const agents = [...new Set(results.map((result) => result.agent))];
  return Object.fromEntries(
    agents.map((agent) => [agent, summarizeAgent(results.filter((result) => result.agent === agent))]),
  );
}
