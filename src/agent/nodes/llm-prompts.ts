import type { Evidence, Turn } from '../state.ts';

export const formatHistory = (history: readonly Turn[]): string =>
  history.map((turn) => `${turn.role === 'user' ? 'User' : 'Assistant'}: ${turn.content}`).join('\n');

/** Evidence as the model sees it: each chunk under its id, so citations can name it. */
export const formatEvidence = (evidence: readonly Evidence[]): string =>
  evidence
    .map((item) => `[chunk_id: ${item.chunk_id}] [doc_id: ${item.doc_id}]${item.heading ? ` (${item.heading})` : ''}\n${item.text}`)
    .join('\n\n');
