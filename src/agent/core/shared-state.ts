import type { Citation } from '../../domain/answer.ts';
import { value } from './state.ts';

/**
 * The fields the shared nodes (core/nodes) keep beside `SharedState`. An agent's state spreads the groups of the
 * shared nodes it wires, so each agent states what it shares instead of inheriting another agent's state.
 */

/** Turns older than the history window, folded into a bounded running summary: load_memory writes it, rewrite reads it. */
export const historySummaryField = {
  history_summary: value<string>(() => ''),
};

/**
 * What the citation check and finalize keep: the final answer's citations, why the check dropped citations last time
 * (fed back to the model on retry), and the retries so far.
 */
export const citationFields = {
  citations: value<Citation[]>(() => []),
  citation_feedback: value<string[]>(() => []),
  retry_count: value<number>(() => 0),
};
