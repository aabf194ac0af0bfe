import type { BeirReport } from '../beir/run-beir.ts';
import { escapeHtml } from '../../format/escape-html.ts';
import { svgBarChart } from './svg-bar-chart.ts';
import { htmlPage, REPORT_STYLE } from './write-report.ts';

/** The BEIR retrieval report as one self-contained HTML page: quality and latency per pipeline, charted and tabled. */
export function renderBeirHtml(report: BeirReport): string {
  const pipelines = Object.entries(report.pipelines);
  const quality = svgBarChart({
    title: 'Retrieval quality by pipeline',
    groups: ['nDCG@10', 'Recall@100', 'MRR@10'],
    series: pipelines.map(([name, s]) => ({ name, values: [s.ndcg_at_10, s.recall_at_100, s.mrr_at_10] })),
    max: 1,
    format: (value) => value.toFixed(3),
  });
  const latency = svgBarChart({
    title: 'Search latency by pipeline (ms)',
    groups: ['p50', 'p95'],
    series: pipelines.map(([name, s]) => ({ name, values: [s.p50_ms, s.p95_ms] })),
    format: (value) => value.toFixed(1),
  });
  const rows = pipelines
    .map(
      ([name, s]) =>
        `<tr><td>${escapeHtml(name)}${name === report.default_pipeline ? ' (default)' : ''}</td>` +
        [s.ndcg_at_10, s.recall_at_100, s.mrr_at_10].map((v) => `<td class="num">${v.toFixed(3)}</td>`).join('') +
        [s.p50_ms, s.p95_ms].map((v) => `<td class="num">${v.toFixed(1)}</td>`).join('') +
        '</tr>',
    )
    .join('');
  const title = `Evident retrieval evaluation: ${report.dataset} (${report.split})`;
  const body =
    `<h1>${escapeHtml(title)}</h1>` +
    `<p>${report.documents} documents → ${report.chunks} chunks in ${(report.ingest_ms / 1000).toFixed(1)} s · ${report.queries} queries · ` +
    `embedder ${escapeHtml(report.embedder)} · reranker ${escapeHtml(report.reranker)}` +
    (report.failed_documents ? ` · ${report.failed_documents} documents failed to ingest` : '') +
    '</p>' +
    `<table><thead><tr><th>pipeline</th><th>nDCG@10</th><th>Recall@100</th><th>MRR@10</th><th>p50 ms</th><th>p95 ms</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<div>${quality}${latency}</div>`;
  return htmlPage(escapeHtml(title), REPORT_STYLE, body);
}
