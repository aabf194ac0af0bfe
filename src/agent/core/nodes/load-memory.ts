import type { Principal } from '../../../domain/index.ts';
import type { Embedder } from '../../../models/embedder.ts';
import type { MemoryStore } from '../../../store/ports/memory-store.ts';
import { foldIntoSummary, splitAtWindow } from '../memory/history-summary.ts';
import type { ModelStepDeps } from '../model-or-offline.ts';
import type { MemoryDeps } from '../shared-deps.ts';
import type { MemoryContext } from '../../../domain/run-state.ts';
import type { Turn } from '../../../domain/turn.ts';

/** What load_memory reads of a run: the question, who asks, the thread's history and its running summary. */
export interface RunToStart {
  question: string;
  principal: Principal | null;
  history: Turn[];
  history_summary: string;
  history_summary_sources?: string[];
}

/** The chunks a summary's turns rest on, the latest kept when there are more than this. */
const MAX_SUMMARY_SOURCES = 2_000;

/** What load_memory works with: the embedder and the memories' port for long-term memory, the model to summarise. */
export interface LoadMemoryDeps extends MemoryDeps, ModelStepDeps {
  embedder: Pick<Embedder, 'embed'>;
  store: Pick<MemoryStore, 'searchMemories'>;
}

/** The asking user's memories most relevant to the question, above the relevance floor. Only ever that user's. */
async function relevantMemories(question: string, user: string, deps: LoadMemoryDeps): Promise<MemoryContext[]> {
  if (!question.trim() || deps.memoryLimit <= 0) return [];
  const [vector] = await deps.embedder.embed([question], 'query');
  if (!vector) return [];
  // Ranked as the Store API ranks a query (keyword + vector, store/item-ranking.ts): an item the user put through the
  // Store API under their own namespace is recalled like a memory an agent saved.
  const hits = await deps.store.searchMemories(user, { text: question, vector }, deps.memoryLimit);
  return hits
    .filter((hit) => hit.score >= deps.memoryFloor)
    .map((hit) => ({ id: hit.id, text: hit.text, score: Math.round(hit.score * 1000) / 1000 }));
}

/**
 * The load_memory node of an agent whose own per-run fields start as `resets`. It starts a run on the thread: the
 * shared per-run fields and the agent's are reset (the thread's checkpoint still holds the previous run's), the
 * conversation history is kept to its window (older turns folded into the running summary), and the asking user's
 * relevant long-term memories are loaded.
 */
export const loadMemory =
  <R extends object>(resets: R) =>
  async (state: RunToStart, deps: LoadMemoryDeps) => {
    const { older, recent: history } = splitAtWindow(state.history, deps.historyWindow);
    const folded = await foldIntoSummary(state.history_summary, older, deps.chat, deps.maxSchemaRetries);
    const memories = state.principal ? await relevantMemories(state.question, state.principal.id, deps) : [];
    return {
      update: {
        history,
        history_summary: folded.summary,
        history_summary_sources: [
          ...new Set([...(state.history_summary_sources ?? []), ...older.flatMap((turn) => turn.sources ?? [])]),
        ].slice(-MAX_SUMMARY_SOURCES),
        memories,
        standalone_question: '',
        sub_questions: [],
        evidence: [],
        answer: null,
        citations: [],
        citation_feedback: [],
        tool_calls: [],
        steps: [],
        errors: [],
        retry_count: 0,
        status: 'running' as const,
        mode: deps.chat ? deps.chat.id : 'offline',
        ...resets,
      },
      summary: `${history.length} earlier turn${history.length === 1 ? '' : 's'} in the thread${older.length ? `, ${older.length} older folded into the summary (${folded.strategy})` : ''}${memories.length ? `, ${memories.length} memor${memories.length === 1 ? 'y' : 'ies'} loaded` : ''}`,
    };
  };
