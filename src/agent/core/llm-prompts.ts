import type { Evidence, MemoryContext, Turn } from './state.ts';

export const formatHistory = (history: readonly Turn[]): string =>
  history.map((turn) => `${turn.role === 'user' ? 'User' : 'Assistant'}: ${turn.content}`).join('\n');

/** The thread as the model sees it: the running summary of the turns beyond the window, then the window verbatim. */
export const formatConversation = (summary: string, history: readonly Turn[]): string =>
  [summary, formatHistory(history)].filter(Boolean).join('\n\n');

/** Evidence as the model sees it: each chunk under its id, so citations can name it. */
export const formatEvidence = (evidence: readonly Evidence[]): string =>
  evidence
    .map((item) => `[chunk_id: ${item.chunk_id}] [doc_id: ${item.doc_id}]${item.heading ? ` (${item.heading})` : ''}\n${item.text}`)
    .join('\n\n');

/** The user's memories as the model sees them: context about the user, explicitly not evidence to cite. */
export const formatMemories = (memories: readonly MemoryContext[]): string =>
  memories.length
    ? `What this user asked you to remember (context about them, not evidence; never cite it):\n${memories.map((memory) => `- ${memory.text}`).join('\n')}\n\n`
    : '';
