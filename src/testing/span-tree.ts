import type { ReceivedSpan } from './otlp-receiver.ts';

/** Attributes worth a glance in a printed tree; ids and the agent (named by the span) are left out. */
const SHOWN =
  /^(evident\.(run\.status|run\.event_count|node\.\w+|retrieval\.(result_count|input_count|top_k|channels)|question)|gen_ai\.(request\.model|usage\.\w+)|error\.type)$/;

/**
 * Spans as an indented tree (children in start order), one line each: name, duration, then the attributes a reader
 * looks for (a node's zero counts left out: a node that resets the run's lists reports every one). What
 * `scripts/print-trace.ts` prints and the README shows.
 */
export function formatSpanTree(spans: readonly ReceivedSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    const parent = ids.has(span.parentSpanId) ? span.parentSpanId : '';
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) =>
      a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0,
    );
    for (const span of list) {
      const shown = Object.entries(span.attributes)
        .filter(
          ([key, value]) =>
            SHOWN.test(key) && !(value === 0 && key.endsWith('_count') && key.startsWith('evident.node.')),
        )
        .map(
          ([key, value]) =>
            `${key.replace(/^evident\./, '')}=${Array.isArray(value) ? value.join(',') : String(value)}`,
        );
      const label = `${'  '.repeat(depth)}${span.name}`;
      lines.push(
        `${label.padEnd(44)} ${span.durationMs.toFixed(1).padStart(8)} ms${shown.length ? `  ${shown.join(' ')}` : ''}`,
      );
      walk(span.spanId, depth + 1);
    }
  };
  walk('', 0);
  return lines.join('\n');
}
