import { interrupt } from '@langchain/langgraph';
import { approvalDecisionSchema, type PendingAction } from '../approval.ts';
import { memoryToSave } from '../memory/remember-intent.ts';
import type { ToolCallRecord } from '../state.ts';
import type { RagNode } from './rag-deps.ts';

/**
 * The `save_memory` side-effect tool. It never writes on the question's (or a model's) say-so: the graph interrupts
 * with the pending action and waits for an approval. On resume this node runs again from the top, so everything
 * before `interrupt()` is pure, and the write is made idempotent by run id + tool call id in the store.
 */
export const saveMemory: RagNode = async (state, deps) => {
  const principal = state.principal;
  const proposed = memoryToSave(state.question);
  if (!principal || !proposed) throw new Error('rag: save_memory needs a principal and a remember request');
  // Deterministic per run: a resumed or replayed node computes the same id, hence the same idempotency key.
  const toolCallId = `save_memory-${state.tool_calls.length + 1}`;
  const pending: PendingAction = { tool: 'save_memory', args: { text: proposed }, approval_id: `${state.run_id}:${toolCallId}` };
  const parsed = approvalDecisionSchema.safeParse(interrupt(pending));

  const began = performance.now();
  const record = (result_summary: string, ok: boolean, args: Record<string, unknown>): ToolCallRecord => ({
    name: 'save_memory',
    arguments: args,
    result_summary,
    ok,
    duration_ms: Math.round((performance.now() - began) * 100) / 100,
  });
  const done = (text: string, call: ToolCallRecord, summary: string) => ({
    update: {
      answer: { answer: text, answerable: true, confidence: 1, citations: [], missing_information: [] },
      status: 'answered' as const,
      tool_calls: [...state.tool_calls, call],
    },
    summary,
  });

  // The agent validates a decision before resuming; anything else that reaches here counts as a rejection.
  const decision = parsed.success ? parsed.data : { decision: 'reject' as const };
  const edited = decision.decision === 'edit' ? decision.args?.text : undefined;
  if (decision.decision === 'reject' || (decision.decision === 'edit' && (typeof edited !== 'string' || !edited.trim()))) {
    return done('Nothing was saved: the memory was rejected.', record('rejected', false, pending.args), 'save_memory rejected');
  }
  const text = typeof edited === 'string' ? edited.trim() : proposed;
  const [vector] = await deps.embedder.embed([text], 'document');
  if (!vector) throw new Error('rag: the embedder returned no vector');
  const { memory, created } = await deps.store.addMemory({
    user: principal.id,
    text,
    vector,
    source: `thread:${state.thread_id}`,
    idempotencyKey: pending.approval_id,
  });
  const summary = `${created ? 'saved' : 'already saved'} memory ${memory.id}${edited === undefined ? '' : ' (edited)'}`;
  return done(`Saved to your memories: ${memory.text}`, record(summary, true, { text }), `save_memory ${summary}`);
};
