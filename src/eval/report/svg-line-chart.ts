import { escapeHtml } from '../../format/escape-html.ts';

export interface LinePoint {
  x: number;
  y: number;
  /** Shown when the point is hovered. */
  label?: string;
}

export interface LineChartInput {
  title: string;
  xLabel: string;
  yLabel: string;
  points: readonly LinePoint[];
  /** Both axes run from 0 to these (1 for rates). */
  xMax: number;
  yMax: number;
  /** A dashed horizontal line, e.g. a target. */
  reference?: { y: number; label: string };
  format: (value: number) => string;
}

const WIDTH = 320;
const HEIGHT = 220;
const TOP = 28;
const BOTTOM = 40;
const LEFT = 44;
const RIGHT = 12;

/** A single-series line chart with point markers as inline SVG (no script, no external resource). */
export function svgLineChart({ title, xLabel, yLabel, points, xMax, yMax, reference, format }: LineChartInput): string {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (value: number) => (LEFT + (Math.min(value, xMax) / xMax) * plotWidth).toFixed(1);
  const y = (value: number) => (TOP + plotHeight - (Math.min(value, yMax) / yMax) * plotHeight).toFixed(1);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<text x="${LEFT}" y="16" class="chart-title">${escapeHtml(title)}</text>`,
  ];
  for (const fraction of [0, 0.5, 1]) {
    const lineY = y(yMax * fraction);
    const lineX = x(xMax * fraction);
    parts.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${lineY}" y2="${lineY}" class="grid"/>`);
    parts.push(
      `<text x="${LEFT - 4}" y="${Number(lineY) + 4}" text-anchor="end" class="axis">${escapeHtml(format(yMax * fraction))}</text>`,
    );
    parts.push(
      `<text x="${lineX}" y="${TOP + plotHeight + 14}" text-anchor="middle" class="axis">${escapeHtml(format(xMax * fraction))}</text>`,
    );
  }
  parts.push(
    `<text x="${LEFT + plotWidth / 2}" y="${HEIGHT - 6}" text-anchor="middle" class="axis">${escapeHtml(xLabel)}</text>`,
    `<text x="10" y="${TOP + plotHeight / 2}" text-anchor="middle" class="axis" transform="rotate(-90 10 ${TOP + plotHeight / 2})">${escapeHtml(yLabel)}</text>`,
  );
  if (reference) {
    const refY = y(reference.y);
    parts.push(
      `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${refY}" y2="${refY}" stroke="#D55E00" stroke-dasharray="4 3"/>`,
      `<text x="${WIDTH - RIGHT}" y="${Number(refY) - 3}" text-anchor="end" class="axis">${escapeHtml(reference.label)}</text>`,
    );
  }
  if (points.length) {
    const path = points.map((point) => `${x(point.x)},${y(point.y)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" stroke="#0072B2" stroke-width="2"/>`);
    for (const point of points) {
      const tip = point.label ?? `${format(point.x)}, ${format(point.y)}`;
      parts.push(
        `<circle cx="${x(point.x)}" cy="${y(point.y)}" r="3" fill="#0072B2"><title>${escapeHtml(tip)}</title></circle>`,
      );
    }
  } else {
    parts.push(
      `<text x="${LEFT + plotWidth / 2}" y="${TOP + plotHeight / 2}" text-anchor="middle" class="axis">nothing answered</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}
