import { describe, expect, it } from 'vitest';
import type { BeirReport } from '../beir/run-beir.ts';
import { renderBeirHtml } from './beir-html-report.ts';
import { escapeHtml } from '../../format/escape-html.ts';
import { svgBarChart } from './svg-bar-chart.ts';

describe('svgBarChart', () => {
  const chart = svgBarChart({
    title: 'Rates <b>',
    groups: ['retrieval', 'answer'],
    series: [
      { name: 'rag', values: [1, 0.5] },
      { name: '<img onerror=x>', values: [null, 0.25] },
    ],
    max: 1,
    format: (value) => `${Math.round(value * 100)}%`,
  });

  it('draws one bar per value, none for n/a, with heights proportional to the value', () => {
    const heights = [
      ...chart.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="\d+" height="([\d.]+)" fill="#[0-9A-F]+"><title>/g),
    ].map((m) => Number(m[1]));
    expect(heights).toHaveLength(3);
    expect(heights[1]! / heights[0]!).toBeCloseTo(0.5);
    expect(heights[2]! / heights[0]!).toBeCloseTo(0.25);
    expect(chart).toContain('>50%</text>');
  });

  it('escapes titles, groups and series names', () => {
    expect(chart).toContain('Rates &lt;b&gt;');
    expect(chart).toContain('&lt;img onerror=x&gt;');
    expect(chart).not.toContain('<img');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('renderBeirHtml', () => {
  it('charts and tables every pipeline in one page', () => {
    const scores = (ndcg: number) => ({ ndcg_at_10: ndcg, recall_at_100: 0.9, mrr_at_10: 0.6, p50_ms: 2, p95_ms: 5 });
    const report: BeirReport = {
      dataset: 'sci<fact>',
      split: 'test',
      documents: 10,
      failed_documents: 0,
      chunks: 12,
      queries: 3,
      ingest_ms: 1200,
      embedder: 'offline',
      reranker: 'none',
      default_pipeline: 'bm25',
      pipelines: { bm25: scores(0.7), vector: scores(0.5) },
    };
    const html = renderBeirHtml(report);
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).toContain('<td>bm25 (default)</td><td class="num">0.700</td>');
    expect(html).toContain('sci&lt;fact&gt;');
    expect(html).not.toContain('sci<fact>');
  });
});
