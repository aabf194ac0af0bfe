import type { AgentRunResult } from '../domain/run-result.ts';
import { pageLabel } from '../domain/page-label.ts';
import { json, type CliIo } from './io.ts';

/** The `--json` shape: the answer contract plus the run's trace. */
export const runJson = (run: AgentRunResult) => ({
  ...(run.answer ?? { answer: null, answerable: false, confidence: 0, citations: [], missing_information: [] }),
  status: run.status,
  mode: run.mode,
  thread_id: run.thread_id,
  run_id: run.run_id,
  standalone_question: run.standalone_question,
  sub_questions: run.sub_questions,
  evidence_ids: run.evidence_ids,
  tool_calls: run.tool_calls,
  steps: run.steps,
  errors: run.errors,
  memories: run.memories,
  ...(run.pending_action ? { pending_action: run.pending_action } : {}),
});

/** The answer with numbered citations and the run line, as a terminal shows it. */
export function human(run: AgentRunResult): string {
  const pending = run.pending_action;
  const lines = pending
    ? [
        `waiting for approval: ${pending.tool} ${JSON.stringify(pending.args)}`,
        `decide with: evident approve ${run.thread_id} [--reject | --edit '{"text": "…"}']`,
      ]
    : [run.answer?.answer ?? '(no answer)'];
  if (run.answer?.citations.length) {
    lines.push('', 'Sources:');
    // The chunk id starts with the doc_id, so it alone says which document and which passage.
    run.answer.citations.forEach((citation, i) =>
      lines.push(
        `[${i + 1}] ${citation.chunk_id}${citation.page ? `, ${pageLabel(citation.doc_id, citation.page)}` : ''}: "${citation.quote}"`,
      ),
    );
  }
  for (const call of run.tool_calls)
    lines.push('', `tool ${call.name}: ${String(call.arguments.sql ?? JSON.stringify(call.arguments))}`);
  lines.push('', `thread ${run.thread_id} · run ${run.run_id} · ${run.mode}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Prints a run: its JSON (with `extra` fields) or the answer with citations on stdout, its errors on stderr. Returns
 * the exit code a failed run calls for (2), or 0.
 */
export function printRun(
  io: CliIo,
  run: AgentRunResult,
  options: { json?: boolean; extra?: Record<string, unknown> } = {},
): number {
  io.out(options.json ? json({ ...runJson(run), ...options.extra }) : human(run));
  for (const error of run.errors) io.err(`error: ${error.message} (${error.code})\n`);
  return run.status === 'failed' ? 2 : 0;
}
