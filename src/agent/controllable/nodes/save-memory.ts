import { memoryToSave } from '../../memory/remember-intent.ts';
import { saveMemoryWithApproval } from '../../tools/save-memory.ts';
import type { ControllableNode } from '../controllable-deps.ts';

/** A "remember that …" question is a side effect, not a task to plan: saved after an approval, as rag and react do. */
export const saveMemory: ControllableNode = async (state, deps) => {
  const principal = state.principal;
  const proposed = memoryToSave(state.question);
  if (!principal || !proposed) throw new Error('controllable: save_memory needs a principal and a remember request');
  // Deterministic per run: a resumed node computes the same id, hence the same idempotency key.
  const approvalId = `${state.run_id}:save_memory-${state.tool_calls.length + 1}`;
  const outcome = await saveMemoryWithApproval({ text: proposed, approvalId, principal, threadId: state.thread_id }, deps);
  return {
    update: {
      answer: { answer: outcome.message, answerable: true, confidence: 1, citations: [], missing_information: [] },
      status: 'answered',
      tool_calls: [...state.tool_calls, outcome.call],
    },
    summary: `save_memory ${outcome.summary}`,
  };
};
