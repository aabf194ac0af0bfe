import { foldIntoSummary, splitAtWindow } from '../../memory/history-summary.ts';
import type { MemoryContext } from '../../core/state.ts';
import type { RagDeps, RagNode } from '../rag-deps.ts';

/** The asking user's memories nearest to the question, above the similarity floor. Only ever that user's. */
async function relevantMemories(question: string, user: string, deps: RagDeps): Promise<MemoryContext[]> {
  if (!question.trim() || deps.memoryLimit <= 0) return [];
  const [vector] = await deps.embedder.embed([question], 'query');
  if (!vector) return [];
  const hits = await deps.store.searchMemories(user, vector, deps.memoryLimit);
  return hits
    .filter((hit) => hit.score >= deps.memoryFloor)
    .map((hit) => ({ id: hit.id, text: hit.text, score: Math.round(hit.score * 1000) / 1000 }));
}

/**
 * Starts a run on the thread: per-run fields are reset (the thread's checkpoint still holds the previous run's),
 * the conversation history is kept to its window (older turns folded into the running summary), and the asking
 * user's relevant long-term memories are loaded.
 */
export const loadMemory: RagNode = async (state, deps) => {
  const { older, recent: history } = splitAtWindow(state.history, deps.historyWindow);
  const folded = await foldIntoSummary(state.history_summary, older, deps.chat, deps.maxSchemaRetries);
  const memories = state.principal ? await relevantMemories(state.question, state.principal.id, deps) : [];
  return {
    update: {
      history,
      history_summary: folded.summary,
      memories,
      standalone_question: '',
      sub_questions: [],
      route: 'retrieve',
      candidates: [],
      hop_chains: [],
      evidence: [],
      answerability: null,
      answer: null,
      citations: [],
      citation_feedback: [],
      tool_calls: [],
      steps: [],
      errors: [],
      retry_count: 0,
      status: 'running',
      mode: deps.chat ? deps.chat.id : 'offline',
    },
    summary: `${history.length} earlier turn${history.length === 1 ? '' : 's'} in the thread${older.length ? `, ${older.length} older folded into the summary (${folded.strategy})` : ''}${memories.length ? `, ${memories.length} memor${memories.length === 1 ? 'y' : 'ies'} loaded` : ''}`,
  };
};
