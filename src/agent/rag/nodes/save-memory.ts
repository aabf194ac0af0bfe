import { memoryToSave } from '../../memory/remember-intent.ts';
import { saveMemoryWithApproval } from '../../tools/save-memory.ts';
import type { RagNode } from '../rag-deps.ts';

/** The `rag` graph's `save_memory` node: the fact of a "remember that …" question, saved after an approval. */
export const saveMemory: RagNode = async (state, deps) => {
  const principal = state.principal;
  const proposed = memoryToSave(state.question);
  if (!principal || !proposed) throw new Error('rag: save_memory needs a principal and a remember request');
  // Deterministic per run: a resumed or replayed node computes the same id, hence the same idempotency key.
  const toolCallId = `save_memory-${state.tool_calls.length + 1}`;
  const outcome = await saveMemoryWithApproval({ text: proposed, approvalId: `${state.run_id}:${toolCallId}`, principal, threadId: state.thread_id }, deps);
  return {
    update: {
      answer: { answer: outcome.message, answerable: true, confidence: 1, citations: [], missing_information: [] },
      status: 'answered',
      tool_calls: [...state.tool_calls, outcome.call],
    },
    summary: `save_memory ${outcome.summary}`,
  };
};
