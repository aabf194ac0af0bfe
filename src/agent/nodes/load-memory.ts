import type { RagNode } from './rag-deps.ts';

/**
 * Starts a run on the thread: per-run fields are reset (the thread's checkpoint still holds the previous run's),
 * and the conversation history is kept to its window. Long-term memories are not loaded yet.
 */
export const loadMemory: RagNode = async (state, deps) => {
  const history = state.history.slice(-deps.historyWindow);
  return {
    update: {
      history,
      standalone_question: '',
      sub_questions: [],
      route: 'retrieve',
      candidates: [],
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
    summary: `${history.length} earlier turn${history.length === 1 ? '' : 's'} in the thread`,
  };
};
