import { describe, expect, it } from 'vitest';
import { svgLineChart } from './svg-line-chart.ts';

const percent = (value: number) => `${Math.round(value * 100)}%`;

describe('svgLineChart', () => {
  const chart = svgLineChart({
    title: 'rag <b>: risk–coverage',
    xLabel: 'coverage',
    yLabel: 'risk',
    points: [
      { x: 0.25, y: 0, label: 'confidence ≥ 0.9' },
      { x: 1, y: 0.5 },
    ],
    xMax: 1,
    yMax: 1,
    reference: { y: 0.1, label: 'risk 10%' },
    format: percent,
  });

  it('draws one marker per point along one line, placed by value, with a dashed reference line', () => {
    const markers = [...chart.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    expect(markers).toHaveLength(2);
    const [[x0, y0], [x1, y1]] = markers as [[number, number], [number, number]];
    expect(x1).toBeGreaterThan(x0);
    expect(y1).toBeLessThan(y0); // higher risk is drawn higher
    expect(chart).toContain(`<polyline points="${x0.toFixed(1)},${y0.toFixed(1)} ${x1.toFixed(1)},${y1.toFixed(1)}"`);
    expect(chart).toContain('stroke-dasharray');
    expect(chart).toContain('<title>confidence ≥ 0.9</title>');
    expect(chart).toContain('<title>100%, 50%</title>');
  });

  it('escapes its texts and says when there is nothing to draw', () => {
    expect(chart).toContain('rag &lt;b&gt;: risk–coverage');
    expect(chart).not.toContain('<b>');
    const empty = svgLineChart({ title: 't', xLabel: 'x', yLabel: 'y', points: [], xMax: 1, yMax: 1, format: percent });
    expect(empty).toContain('nothing answered');
    expect(empty).not.toContain('<polyline');
  });
});
