import { saveMemoryWithApproval } from '../../core/nodes/save-memory.ts';
import type { ReactNode } from '../react-deps.ts';
import { withObservations } from './scratchpad.ts';

/**
 * The model's save_memory call, behind the shared approval (core/nodes/save-memory.ts): the run interrupts with the pending action and waits. Nothing
 * before the interrupt has effects (on resume this node runs again); the idempotency key is run id + tool call id.
 */
export const saveMemory: ReactNode = async (state, deps) => {
  const [request, ...rest] = state.queue;
  const principal = state.principal;
  if (!request || request.tool !== 'save_memory' || !principal)
    throw new Error('react: save_memory needs a queued call and the principal');
  const outcome = await saveMemoryWithApproval(
    {
      text: String(request.input.text),
      approvalId: `${state.run_id}:save_memory-${request.id}`,
      principal,
      threadId: state.thread_id,
    },
    deps,
  );
  return {
    update: {
      queue: rest,
      tool_calls: [...state.tool_calls, outcome.call],
      scratchpad: withObservations(state.scratchpad, [
        { call_id: request.id, tool: 'save_memory', content: outcome.message, ok: outcome.call.ok },
      ]),
    },
    summary: `save_memory ${outcome.summary}`,
  };
};
