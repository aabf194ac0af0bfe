import { feedbackText } from './feedback-summary.ts';
import { formatTable } from '../../format/format-table.ts';
import { LAYERS } from '../layers/layer-result.ts';
import type { EvalReport } from '../run/run-eval.ts';
import type { LayerSummary } from '../run/summarize-results.ts';

const percent = (value: number | null | undefined): string =>
  value === null || value === undefined ? 'n/a' : `${Math.round(value * 100)}%`;
const fixed = (value: number | null | undefined): string =>
  value === null || value === undefined ? 'n/a' : value.toFixed(3);
/** Table cells stay one readable line. */
const clip = (text: string, max = 110): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const layerCell = (layer: LayerSummary): string => (layer.scored === 0 ? 'n/a' : `${layer.passed}/${layer.scored}`);
/** A rate with the count behind it (`18/30 (60%)`), so a rate over a handful of cases reads as such. */
export const rateCell = (rate: number | null | undefined, cases: number | null | undefined): string =>
  rate === null || rate === undefined || !cases ? 'n/a' : `${Math.round(rate * cases)}/${cases} (${percent(rate)})`;

/** One cell of the Answers table: a rate read with the count behind it, or a plain figure. */
export type AnswerMetricCell =
  | { rate: number | null | undefined; cases: number | null | undefined }
  | { figure: number | null | undefined };

export const ANSWER_METRIC_HEADERS = [
  'agent',
  'rejection rate',
  'accuracy',
  'refusal P',
  'refusal R',
  'refusal F1',
  'false refusals',
  'containment',
];

/**
 * The benchmarks' own answer figures, per agent, for the terminal and the HTML report alike: RGB's rejection rate
 * (refused among cases expected unanswerable) and accuracy (gold contained, among cases expected answerable,
 * refusals wrong), then refusal P/R/F1 and false refusals (positive class: should refuse). Empty when no case
 * expected anything of answers or answerability.
 */
export function answerMetricRows(summary: EvalReport['summary']): [string, AnswerMetricCell[]][] {
  return Object.entries(summary)
    .filter(([, s]) => s.answerability.scored > 0 || (s.answer.accuracy_cases ?? 0) > 0)
    .map(([agent, s]) => [
      agent,
      [
        { rate: s.answerability.rejection_rate, cases: s.answerability.unanswerable_cases },
        { rate: s.answer.accuracy, cases: s.answer.accuracy_cases },
        { figure: s.answerability.refusal_precision },
        { figure: s.answerability.refusal_recall },
        { figure: s.answerability.refusal_f1 },
        { rate: s.answerability.false_refusal_rate, cases: s.answerability.answerable_cases },
        { figure: s.answer.containment },
      ],
    ]);
}

export function renderAnswerMetrics(summary: EvalReport['summary']): string {
  const rows = answerMetricRows(summary);
  if (rows.length === 0) return '';
  return formatTable(
    ANSWER_METRIC_HEADERS,
    rows.map(([agent, cells]) => [
      agent,
      ...cells.map((cell) => ('figure' in cell ? fixed(cell.figure) : rateCell(cell.rate, cell.cases))),
    ]),
  );
}

/** A count with its denominator and share (`3/12 (25%)`); `n/a` over nothing. */
export const countCell = (count: number, of: number): string =>
  of === 0 ? 'n/a' : `${count}/${of} (${percent(count / of)})`;

export const SELECTIVE_HEADERS = ['agent', 'coverage', 'risk', 'right', 'wrong', 'refused', 'false refusals'];

/**
 * Selective question answering per agent, for the terminal and the HTML report alike: coverage (answered, of the
 * graded cases), risk (wrong, of the answered), strict right (of the cases with a gold value), wrong, refused and
 * false refusals (of the answerable). Empty when no case has a gold value or expects a refusal.
 */
export function selectiveRows(summary: EvalReport['summary']): [string, string[]][] {
  return Object.entries(summary)
    .filter(([, s]) => s.selective.cases > 0)
    .map(([agent, { selective: q }]) => [
      agent,
      [
        countCell(q.answered, q.cases),
        countCell(q.wrong, q.answered),
        countCell(q.right, q.gold_cases),
        String(q.wrong),
        String(q.refused),
        countCell(q.false_refusals, q.answerable_cases),
      ],
    ]);
}

export function renderSelective(summary: EvalReport['summary']): string {
  const rows = selectiveRows(summary);
  return rows.length
    ? formatTable(
        SELECTIVE_HEADERS,
        rows.map(([agent, cells]) => [agent, ...cells]),
      )
    : '';
}

/** The terminal view of an evaluation: pass counts by layer and agent, the layer metrics, then the failing cases. */
export function renderEvalReport(report: EvalReport): string {
  const { meta } = report;
  const head =
    `${report.cases.length} runs of ${meta.cases_file} (${meta.agents.join(', ')}; ${meta.mode}) on ${meta.documents} documents` +
    (meta.failed_documents ? ` (${meta.failed_documents} failed to ingest)` : '') +
    ` in ${(meta.elapsed_ms / 1000).toFixed(1)} s\n\n`;
  const agents = Object.entries(report.summary);
  const passTable = formatTable(
    ['agent', 'passed', ...LAYERS, 'p50 ms', 'p95 ms'],
    agents.map(([agent, s]) => [
      agent,
      `${s.overall.passed}/${s.overall.cases} (${percent(s.overall.pass_rate)})`,
      ...LAYERS.map((layer) => layerCell(s[layer])),
      s.overall.latency_p50_ms,
      s.overall.latency_p95_ms,
    ]),
  );
  const metricTable = formatTable(
    ['agent', 'hit@10', 'recall@10', 'MRR@10', 'rerank hit@5', 'citation validity', 'citation recall', 'schema valid'],
    agents.map(([agent, s]) => [
      agent,
      fixed(s.retrieval.hit_at_10),
      fixed(s.retrieval.recall_at_10),
      fixed(s.retrieval.mrr_at_10),
      fixed(s.rerank.hit_at_5),
      fixed(s.citations.validity),
      fixed(s.citations.recall),
      fixed(s.schema.valid),
    ]),
  );
  const answerTable = renderAnswerMetrics(report.summary);
  const selectiveTable = renderSelective(report.summary);
  const failing = report.cases.filter((result) => !result.passed);
  const failTable = failing.length
    ? '\nFirst failing layer:\n' +
      formatTable(
        ['case', 'agent', 'layer', 'why'],
        failing.map((result) => [
          result.id,
          result.agent,
          result.first_failure ?? '',
          result.first_failure ? clip(result.layers[result.first_failure].detail) : '',
        ]),
      )
    : '\nEvery case passed every scored layer.\n';
  const selective = selectiveTable
    ? '\nSelective answering (coverage: answered of the graded; risk: wrong of the answered; right: the gold as the one value given):\n' +
      selectiveTable
    : '';
  return `${head}${passTable}\n${metricTable}${answerTable ? `\nAnswers (rejection rate: refused of the unanswerable; accuracy: gold contained of the answerable, refusals wrong):\n${answerTable}` : ''}${selective}${feedbackText(report.feedback)}${failTable}`;
}
