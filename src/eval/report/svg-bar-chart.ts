import { escapeHtml } from '../../format/escape-html.ts';

export interface BarSeries {
  name: string;
  /** One value per group; null draws no bar (the value does not apply). */
  values: readonly (number | null)[];
}

export interface BarChartInput {
  title: string;
  groups: readonly string[];
  series: readonly BarSeries[];
  /** Top of the y axis (1 for rates); the largest value when absent. */
  max?: number;
  format: (value: number) => string;
}

/** Distinguishable on white and for common colour blindness (Okabe–Ito). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];

const HEIGHT = 220;
const TOP = 34;
const BOTTOM = 46;
const LEFT = 44;

/** A grouped vertical bar chart as inline SVG (no script, no external resource), with a legend and value labels. */
export function svgBarChart({ title, groups, series, max, format }: BarChartInput): string {
  const top = max ?? Math.max(1e-9, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const barWidth = 24;
  const groupWidth = Math.max(60, series.length * barWidth + 24);
  const width = LEFT + groups.length * groupWidth + 16;
  const plot = HEIGHT - TOP - BOTTOM;
  const y = (value: number) => TOP + plot - (Math.min(value, top) / top) * plot;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<text x="${LEFT}" y="16" class="chart-title">${escapeHtml(title)}</text>`,
  ];
  for (const fraction of [0, 0.5, 1]) {
    const lineY = y(top * fraction);
    parts.push(`<line x1="${LEFT}" x2="${width - 8}" y1="${lineY}" y2="${lineY}" class="grid"/>`);
    parts.push(
      `<text x="${LEFT - 4}" y="${lineY + 4}" text-anchor="end" class="axis">${escapeHtml(format(top * fraction))}</text>`,
    );
  }
  groups.forEach((group, g) => {
    const x0 = LEFT + g * groupWidth + (groupWidth - series.length * barWidth) / 2;
    series.forEach((s, i) => {
      const value = s.values[g];
      if (value === null || value === undefined) return;
      const x = x0 + i * barWidth;
      const barTop = y(value);
      const colour = COLOURS[i % COLOURS.length] as string;
      parts.push(
        `<rect x="${x}" y="${barTop}" width="${barWidth - 3}" height="${TOP + plot - barTop}" fill="${colour}"><title>${escapeHtml(`${s.name} · ${group}: ${format(value)}`)}</title></rect>`,
      );
      parts.push(
        `<text x="${x + (barWidth - 3) / 2}" y="${barTop - 3}" text-anchor="middle" class="value">${escapeHtml(format(value))}</text>`,
      );
    });
    parts.push(
      `<text x="${LEFT + g * groupWidth + groupWidth / 2}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle" class="axis">${escapeHtml(group)}</text>`,
    );
  });
  series.forEach((s, i) => {
    const x = LEFT + i * 120;
    parts.push(`<rect x="${x}" y="${HEIGHT - 16}" width="10" height="10" fill="${COLOURS[i % COLOURS.length]}"/>`);
    parts.push(`<text x="${x + 14}" y="${HEIGHT - 7}" class="axis">${escapeHtml(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}
