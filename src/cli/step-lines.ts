import type { StepEvent } from '../domain/step-event.ts';

const MAX_IDS = 5;

const ids = (list: readonly string[]) =>
  `${list.slice(0, MAX_IDS).join(', ')}${list.length > MAX_IDS ? ` (+${list.length - MAX_IDS})` : ''}`;

/**
 * One completed node of a run as plain lines for stderr: the node and its summary, then what it decided (each
 * retrieval channel's hits, the evidence kept, the verdict, tool calls). Plain lines on a terminal and off it, so a
 * log reads the same as the screen.
 */
export function formatStepLines(event: StepEvent): string {
  const lines = [`· ${event.node} (${event.duration_ms} ms): ${event.summary}`];
  for (const hit of event.hits ?? [])
    lines.push(`    ${hit.channel} "${hit.query}": ${hit.chunk_ids.length ? ids(hit.chunk_ids) : 'no hits'}`);
  if (event.evidence?.length)
    lines.push(`    evidence: ${ids(event.evidence.map((item) => `${item.chunk_id} (${item.score})`))}`);
  if (event.answerability) {
    const { answerable, missing_information: missing } = event.answerability;
    lines.push(
      `    verdict: ${answerable ? 'answerable' : 'not answerable'}${missing.length ? `; missing: ${missing.join('; ')}` : ''}`,
    );
  }
  for (const call of event.tool_calls ?? []) {
    lines.push(
      `    tool ${call.name} ${call.ok ? 'ok' : 'failed'} (${call.duration_ms} ms): ${String(call.arguments.sql ?? JSON.stringify(call.arguments))} → ${call.result_summary.replace(/\s+/g, ' ')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
