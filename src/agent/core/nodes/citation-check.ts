import { checkRunCitations } from '../../core/citation-check.ts';
import type { RagNode } from '../rag-deps.ts';

/** Drops citations that do not hold; with none left, generates again (bounded), then refuses. */
export const citationCheck: RagNode = async (state, deps) => checkRunCitations(state, deps.maxCitationRetries);
