import type { Candidate } from '../../../domain/evidence.ts';
import type { RunError, ToolCallRecord } from '../../../domain/step.ts';
import { mergeEvidence } from '../rag-fusion.ts';
import type { ReactNode } from '../react-deps.ts';
import type { Observation } from '../react-state.ts';
import { runTool } from './run-tool.ts';
import { clip, withObservations } from './scratchpad.ts';

/**
 * Runs the queued read-only calls of the last turn (knowledge_base, table_query) as the run's principal, up to a
 * save_memory call, which waits for approval in its own node. Every call is recorded; knowledge_base's evidence joins
 * the run's evidence, which is what citations may point at.
 */
export const act: ReactNode = async (state, deps) => {
  const principal = state.principal;
  if (!principal) throw new Error('react: tools need the principal');
  const queue = [...state.queue];
  const observations: Observation[] = [];
  const calls: ToolCallRecord[] = [];
  const candidates: Candidate[] = [];
  const errors: RunError[] = [];
  let evidence = state.evidence;
  while (queue[0] && queue[0].tool !== 'save_memory') {
    const request = queue.shift() as (typeof queue)[number];
    const started = performance.now();
    const outcome = await runTool(request, principal, deps);
    observations.push(outcome.observation);
    calls.push({
      name: request.tool,
      arguments: request.input,
      result_summary: outcome.result_summary,
      ok: outcome.observation.ok,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      ...(outcome.doc_ids ? { doc_ids: outcome.doc_ids } : {}),
    });
    evidence = mergeEvidence(evidence, outcome.evidence);
    candidates.push(...outcome.candidates);
    errors.push(...outcome.errors);
  }
  return {
    update: {
      queue,
      scratchpad: withObservations(state.scratchpad, observations),
      tool_calls: [...state.tool_calls, ...calls],
      evidence,
      candidates,
      ...(errors.length ? { errors: [...state.errors, ...errors] } : {}),
    },
    summary: calls.map((call) => `${call.name}: ${clip(call.result_summary.split('\n')[0] ?? '', 160)}`).join('; '),
  };
};
