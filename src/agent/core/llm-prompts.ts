import type { Answerability, Evidence } from '../../domain/evidence.ts';
import type { MemoryContext } from '../../domain/run-state.ts';
import type { Turn } from '../../domain/turn.ts';

export const formatHistory = (history: readonly Turn[]): string =>
  history.map((turn) => `${turn.role === 'user' ? 'User' : 'Assistant'}: ${turn.content}`).join('\n');

/** The thread as the model sees it: the running summary of the turns beyond the window, then the window verbatim. */
export const formatConversation = (summary: string, history: readonly Turn[]): string =>
  [summary, formatHistory(history)].filter(Boolean).join('\n\n');

/**
 * Evidence as the model sees it: each chunk under its id, so extractions and citations can name it (a model's ids are
 * mapped back to chunks and checked: core/model-evidence.ts).
 */
export const formatEvidence = (evidence: readonly Evidence[]): string =>
  evidence
    .map(
      (item) =>
        `[chunk_id: ${item.chunk_id}] [doc_id: ${item.doc_id}]${item.heading ? ` (${item.heading})` : ''}\n${item.text}`,
    )
    .join('\n\n');

/** The user's memories as the model sees them: context about the user, explicitly not evidence to cite. */
export const formatMemories = (memories: readonly MemoryContext[]): string =>
  memories.length
    ? `What this user asked you to remember (context about them, not evidence; never cite it):\n${memories.map((memory) => `- ${memory.text}`).join('\n')}\n\n`
    : '';

/** How every evidence prompt tells the model to refer to a passage. */
export const CITE_BY_ID =
  'Each evidence passage is headed by its [chunk_id: …]; refer to a passage by exactly that id, and copy quotes word for word from it.';

/**
 * The sentences the answerability judge extracted as stating the answer, each under its chunk id: what the answer
 * step writes from (the whole evidence stays in the prompt for context and further quotes).
 */
export const formatSupport = (support: Answerability['support']): string =>
  support.map((item) => `- [chunk_id: ${item.chunk_id}] "${item.sentence}"`).join('\n');
