import { escapeHtml } from '../../format/escape-html.ts';
import type { EvalReport } from '../run/run-eval.ts';
import type { SelectiveSummary } from '../run/summarize-selective.ts';
import { SELECTIVE_HEADERS, selectiveRows } from './render-eval-table.ts';
import { svgLineChart } from './svg-line-chart.ts';

/** The risk a wrong answer may reach among the answered (issue 25's target), drawn on every curve. */
export const RISK_TARGET = 0.1;

const percent = (value: number): string => `${Math.round(value * 100)}%`;
const na = '<span class="na">n/a</span>';

function riskCoverageChart(agent: string, selective: SelectiveSummary): string {
  return svgLineChart({
    title: `${agent}: risk–coverage`,
    xLabel: 'coverage (answered, of the graded)',
    yLabel: 'risk (wrong, of the answered)',
    points: selective.risk_coverage.map((point) => ({
      x: point.coverage,
      y: point.risk,
      label: `confidence ≥ ${point.confidence}: ${point.answered} answered, coverage ${percent(point.coverage)}, risk ${percent(point.risk)}`,
    })),
    xMax: 1,
    yMax: 1,
    reference: { y: RISK_TARGET, label: `risk ${percent(RISK_TARGET)}` },
    format: percent,
  });
}

function reliabilityTable(agent: string, selective: SelectiveSummary): string {
  const rows = selective.reliability.map((row) => {
    const meets =
      row.meets === null ? na : row.meets ? '<span class="pass">yes</span>' : '<span class="fail">no</span>';
    return (
      `<tr><td class="num">≥ ${row.min_confidence}</td><td class="num">${row.answered}</td>` +
      `<td class="num">${row.right_share === null ? na : percent(row.right_share)}</td><td>${meets}</td></tr>`
    );
  });
  return (
    `<table><caption>${escapeHtml(agent)}: reliability</caption><thead><tr><th>confidence</th><th>answered</th>` +
    `<th>right</th><th>right ≥ confidence?</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

/** Every wrong answer with the value it gave and why it is wrong: some pass containment, so no layer shows them. */
function wrongAnswers(report: EvalReport): string {
  const wrong = report.cases.filter((result) => result.selective.wrong);
  if (wrong.length === 0) return '<p class="pass">No wrong answer.</p>';
  const rows = wrong.map(
    (result) =>
      `<tr><td><code>${escapeHtml(result.id)}</code></td><td>${escapeHtml(result.agent)}</td>` +
      `<td class="num">${result.selective.confidence ?? na}</td><td>${escapeHtml(result.trace.question)}</td>` +
      `<td>${escapeHtml(result.selective.detail)}</td></tr>`,
  );
  return (
    `<details><summary>Wrong answers (${wrong.length})</summary><table><thead><tr><th>case</th><th>agent</th>` +
    `<th>confidence</th><th>question</th><th>why wrong</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`
  );
}

/**
 * Selective question answering: the per-agent table (coverage, risk, strict right, wrong, refused, false refusals),
 * then per agent its risk–coverage curve and its reliability table. Empty when no case is graded.
 */
export function selectiveSection(report: EvalReport): string {
  const rows = selectiveRows(report.summary);
  if (rows.length === 0) return '';
  const head = SELECTIVE_HEADERS.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map(
    ([agent, cells]) =>
      `<tr><td>${escapeHtml(agent)}</td>${cells.map((cell) => `<td class="num">${escapeHtml(cell)}</td>`).join('')}</tr>`,
  );
  const perAgent = rows.map(([agent]) => {
    const selective = report.summary[agent]?.selective as SelectiveSummary;
    return `<div class="selective">${riskCoverageChart(agent, selective)}${reliabilityTable(agent, selective)}</div>`;
  });
  return (
    '<h2>Selective answering</h2><p>Graded cases have a gold value or are expected to be unanswerable. Coverage: answered, ' +
    'of the graded. Risk: wrong, of the answered (a wrong answer costs more than a refusal). Right: the gold is <em>the</em> ' +
    'value the answer gives (its head, not a list of candidates), of the cases with a gold value. The curve answers only ' +
    'at or above each confidence the agent gave, most confident first; the reliability table checks that of the answers ' +
    'given with confidence ≥ c, at least c are right.</p>' +
    `<table><thead><tr>${head}</tr></thead><tbody>${body.join('')}</tbody></table>${perAgent.join('')}${wrongAnswers(report)}`
  );
}
