import { LAYERS } from '../layers/layer-result.ts';
import type { EvalReport } from '../run/run-eval.ts';
import type { CaseResult } from '../run/score-case.ts';
import { escapeHtml } from '../../format/escape-html.ts';
import { ANSWER_METRIC_HEADERS, answerMetricRows } from './render-eval-table.ts';
import { feedbackHtml } from './feedback-summary.ts';
import { selectiveSection } from './selective-html.ts';
import { svgBarChart } from './svg-bar-chart.ts';
import { htmlPage, REPORT_STYLE } from './write-report.ts';

const percent = (value: number): string => `${Math.round(value * 100)}%`;

/** Latency buckets (upper bounds, ms) for the distribution chart: wide enough for offline runs and model calls. */
const LATENCY_BOUNDS = [50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, Number.POSITIVE_INFINITY];
const bucketLabel = (i: number): string => {
  const upper = LATENCY_BOUNDS[i] as number;
  const fmt = (ms: number) => (ms >= 1000 ? `${ms / 1000}s` : `${ms}`);
  return upper === Number.POSITIVE_INFINITY ? `>${fmt(LATENCY_BOUNDS[i - 1] as number)}` : `≤${fmt(upper)}`;
};

function latencyChart(report: EvalReport): string {
  const agents = report.meta.agents;
  const counts = agents.map((agent) => {
    const buckets = LATENCY_BOUNDS.map(() => 0);
    for (const result of report.cases) {
      if (result.agent !== agent) continue;
      const index = LATENCY_BOUNDS.findIndex((bound) => result.latency_ms <= bound);
      buckets[index] = (buckets[index] as number) + 1;
    }
    return buckets;
  });
  // Only the span of buckets that hold runs, so a fast set is not drawn as mostly empty space.
  const used = LATENCY_BOUNDS.map((_, i) => counts.some((buckets) => (buckets[i] as number) > 0));
  const first = Math.max(0, used.indexOf(true));
  const last = Math.max(first, used.lastIndexOf(true));
  const range = LATENCY_BOUNDS.slice(first, last + 1).map((_, k) => first + k);
  return svgBarChart({
    title: 'Latency distribution (runs per bucket, ms)',
    groups: range.map(bucketLabel),
    series: agents.map((agent, a) => ({ name: agent, values: range.map((i) => counts[a]?.[i] ?? 0) })),
    format: (value) => String(Math.round(value)),
  });
}

function charts(report: EvalReport): string {
  const agents = Object.entries(report.summary);
  const layerChart = svgBarChart({
    title: 'Pass rate by layer (scored cases only)',
    groups: [...LAYERS],
    series: agents.map(([agent, s]) => ({ name: agent, values: LAYERS.map((layer) => s[layer].pass_rate) })),
    max: 1,
    format: percent,
  });
  const metrics: [string, (s: EvalReport['summary'][string]) => number | null][] = [
    ['all layers', (s) => s.overall.pass_rate],
    ['hit@10', (s) => s.retrieval.hit_at_10 ?? null],
    ['rerank hit@5', (s) => s.rerank.hit_at_5 ?? null],
    ['rejection rate', (s) => s.answerability.rejection_rate ?? null],
    ['accuracy', (s) => s.answer.accuracy ?? null],
    ['refusal F1', (s) => s.answerability.refusal_f1 ?? null],
    ['citation validity', (s) => s.citations.validity ?? null],
    ['schema valid', (s) => s.schema.valid ?? null],
    ['containment', (s) => s.answer.containment ?? null],
  ];
  const agentChart = svgBarChart({
    title: 'Agents compared',
    groups: metrics.map(([name]) => name),
    series: agents.map(([agent, s]) => ({ name: agent, values: metrics.map(([, read]) => read(s)) })),
    max: 1,
    format: (value) => value.toFixed(2),
  });
  return `<div>${layerChart}${agentChart}${latencyChart(report)}</div>`;
}

function summaryTable(report: EvalReport): string {
  const head = ['agent', 'passed', ...LAYERS, 'p50 ms', 'p95 ms'].map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = Object.entries(report.summary).map(([agent, s]) => {
    const cells = LAYERS.map((layer) => {
      const l = s[layer];
      return `<td class="num">${l.scored === 0 ? '<span class="na">n/a</span>' : `${l.passed}/${l.scored}`}</td>`;
    });
    return (
      `<tr><td>${escapeHtml(agent)}</td><td class="num">${s.overall.passed}/${s.overall.cases} (${percent(s.overall.pass_rate)})</td>` +
      `${cells.join('')}<td class="num">${s.overall.latency_p50_ms}</td><td class="num">${s.overall.latency_p95_ms}</td></tr>`
    );
  });
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const rate = (value: number | null | undefined, cases: number | null | undefined): string =>
  value === null || value === undefined || !cases
    ? '<span class="na">n/a</span>'
    : `${Math.round(value * cases)}/${cases} (${percent(value)})`;
const fixed = (value: number | null | undefined): string =>
  value === null || value === undefined ? '<span class="na">n/a</span>' : value.toFixed(3);

/**
 * The benchmarks' own answer figures (RGB's rejection rate and accuracy; refusal P/R/F1 and false refusals, the
 * positive class being "should refuse"); empty when no case expected anything of answers or answerability.
 */
function answerTable(report: EvalReport): string {
  const agents = answerMetricRows(report.summary);
  if (agents.length === 0) return '';
  const head = ANSWER_METRIC_HEADERS.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = agents.map(([agent, cells]) => {
    const shown = cells.map((cell) => ('figure' in cell ? fixed(cell.figure) : rate(cell.rate, cell.cases)));
    return `<tr><td>${escapeHtml(agent)}</td>${shown.map((cell) => `<td class="num">${cell}</td>`).join('')}</tr>`;
  });
  return (
    `<h2>Answers</h2><p>Rejection rate: refused, of the cases expected unanswerable. Accuracy: the gold answer contained, of the cases ` +
    `expected answerable (a refusal is wrong). Refusal precision, recall and F1 take "should refuse" as the positive class; false refusals: ` +
    `refused, of the answerable.</p><table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

const list = (items: readonly string[] | null): string =>
  items === null ? 'n/a (not exposed)' : items.length ? items.join(', ') : '(none)';

function traceText(result: CaseResult): string {
  const t = result.trace;
  const lines = [
    `question: ${t.question}`,
    `standalone question: ${t.standalone_question ?? 'n/a (not exposed)'}`,
    `retrieved docs (before rerank): ${list(t.retrieved_doc_ids)}`,
    `evidence: ${list(t.evidence_ids)}`,
    `answer (status ${t.status}, confidence ${t.confidence ?? 'n/a'}): ${t.answer ?? '(none)'}`,
    ...t.citations.map((c, i) => `citation [${i + 1}] ${c.chunk_id}: "${c.quote}"`),
    `tool calls: ${t.tool_calls === null ? 'n/a (not exposed)' : t.tool_calls.length ? t.tool_calls.map((c) => `${c.name} ${JSON.stringify(c.arguments)} ${c.ok ? 'ok' : 'failed'}`).join('; ') : '(none)'}`,
    ...t.errors.map((error) => `error: ${error}`),
    '',
    ...LAYERS.map((layer) => `${layer}: ${result.layers[layer].status} — ${result.layers[layer].detail}`),
    `selective: ${result.selective.right ? 'right' : result.selective.wrong ? 'wrong' : result.selective.answered ? 'answered' : 'refused'} — ${result.selective.detail}`,
  ];
  return lines.join('\n');
}

function failingTable(report: EvalReport): string {
  const failing = report.cases.filter((result) => !result.passed);
  if (failing.length === 0) return '<p class="pass">Every case passed every scored layer.</p>';
  const rows = failing.map((result) => {
    const layer = result.first_failure;
    const why = layer ? result.layers[layer].detail : '';
    return (
      `<tr><td><code>${escapeHtml(result.id)}</code></td><td>${escapeHtml(result.agent)}</td><td class="fail">${escapeHtml(layer ?? '')}</td>` +
      `<td>${escapeHtml(why)}<details><summary>${escapeHtml(result.trace.question)}</summary><pre>${escapeHtml(traceText(result))}</pre></details></td>` +
      `<td class="num">${result.latency_ms}</td></tr>`
    );
  });
  return `<table><thead><tr><th>case</th><th>agent</th><th>first failing layer</th><th>why, and the run's trace</th><th>ms</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The evaluation as one self-contained HTML page: summary table, charts, and every failing case with its trace. */
export function renderEvalHtml(report: EvalReport): string {
  const { meta } = report;
  const title = `Evident evaluation: ${meta.cases_file}`;
  const body =
    `<h1>${escapeHtml(title)}</h1>` +
    `<p>${report.cases.length} runs · agents ${escapeHtml(meta.agents.join(', '))} · ${escapeHtml(meta.mode)} · ${meta.documents} documents from ` +
    `<code>${escapeHtml(meta.corpus)}</code> · ${escapeHtml(meta.started_at)} · ${(meta.elapsed_ms / 1000).toFixed(1)} s</p>` +
    `<h2>Summary</h2>${summaryTable(report)}` +
    answerTable(report) +
    selectiveSection(report) +
    feedbackHtml(report.feedback) +
    `<h2>Charts</h2>${charts(report)}` +
    `<h2>Failing cases (${report.cases.filter((r) => !r.passed).length})</h2>${failingTable(report)}`;
  return htmlPage(escapeHtml(title), REPORT_STYLE, body);
}
