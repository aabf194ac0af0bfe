import { checkRunCitations } from '../../core/citation-check.ts';
import type { ControllableNode } from '../controllable-deps.ts';

/** The same citation check as `rag`: citations must name this run's evidence and quote it exactly. */
export const checkCitations: ControllableNode = async (state, deps) =>
  checkRunCitations(state, deps.maxCitationRetries);
