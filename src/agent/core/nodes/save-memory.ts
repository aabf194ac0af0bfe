import { interrupt } from '@langchain/langgraph';
import type { Principal } from '../../../domain/index.ts';
import type { Embedder } from '../../../models/embedder.ts';
import type { MemoryStore } from '../../../store/store.ts';
import { approvalDecisionSchema, type PendingAction } from '../../../domain/approval.ts';
import type { Answer } from '../../../domain/answer.ts';
import type { SharedStateType } from '../shared-state.ts';
import type { ToolCallRecord } from '../../../domain/step.ts';
import { memoryToSave } from '../memory/remember-intent.ts';

/** A memory a run proposes to save, and the key its approval (and the idempotent write) goes by. */
export interface MemoryProposal {
  text: string;
  /** Run id + tool call id: the interrupt's approval id and the store's idempotency key. */
  approvalId: string;
  principal: Principal;
  threadId: string;
}

/** What became of a proposal: the recorded tool call, the message for the user, and a one-line step summary. */
export interface MemoryOutcome {
  call: ToolCallRecord;
  message: string;
  summary: string;
}

/**
 * The `save_memory` side effect behind an approval, shared by every agent that offers it. It never writes on a
 * question's (or a model's) say-so: it interrupts with the pending action and waits for the decision. On resume the
 * calling node runs again from the top, so everything before this call must be pure; the write is idempotent by the
 * approval id.
 */
export async function saveMemoryWithApproval(
  proposal: MemoryProposal,
  deps: { embedder: Embedder; store: Pick<MemoryStore, 'addMemory'> },
): Promise<MemoryOutcome> {
  const pending: PendingAction = {
    tool: 'save_memory',
    args: { text: proposal.text },
    approval_id: proposal.approvalId,
  };
  const parsed = approvalDecisionSchema.safeParse(interrupt(pending));

  const began = performance.now();
  const record = (result_summary: string, ok: boolean, args: Record<string, unknown>): ToolCallRecord => ({
    name: 'save_memory',
    arguments: args,
    result_summary,
    ok,
    duration_ms: Math.round((performance.now() - began) * 100) / 100,
  });

  // The agent validates a decision before resuming; anything else that reaches here counts as a rejection.
  const decision = parsed.success ? parsed.data : { decision: 'reject' as const };
  const edited = decision.decision === 'edit' ? decision.args?.text : undefined;
  if (
    decision.decision === 'reject' ||
    (decision.decision === 'edit' && (typeof edited !== 'string' || !edited.trim()))
  ) {
    return {
      call: record('rejected', false, pending.args),
      message: 'Nothing was saved: the memory was rejected.',
      summary: 'rejected',
    };
  }
  const text = typeof edited === 'string' ? edited.trim() : proposal.text;
  const [vector] = await deps.embedder.embed([text], 'document');
  if (!vector) throw new Error('save_memory: the embedder returned no vector');
  const { memory, created } = await deps.store.addMemory({
    user: proposal.principal.id,
    text,
    vector,
    source: `thread:${proposal.threadId}`,
    idempotencyKey: proposal.approvalId,
  });
  const summary = `${created ? 'saved' : 'already saved'} memory ${memory.id}${edited === undefined ? '' : ' (edited)'}`;
  return { call: record(summary, true, { text }), message: `Saved to your memories: ${memory.text}`, summary };
}

/** What a graph's `save_memory` node reads of its state (the shared fields). */
type RememberState = Pick<SharedStateType, 'principal' | 'question' | 'tool_calls' | 'run_id' | 'thread_id' | 'steps'>;

/**
 * The `save_memory` node of a graph that routes a "remember that …" question to saving (rag, controllable): the
 * fact, saved after an approval, and the answer that says so.
 */
export async function saveRequestedMemory(
  state: RememberState,
  deps: { embedder: Embedder; store: Pick<MemoryStore, 'addMemory'> },
) {
  const principal = state.principal;
  const proposed = memoryToSave(state.question);
  if (!principal || !proposed) throw new Error('save_memory needs a principal and a remember request');
  // Deterministic per run: a resumed or replayed node computes the same id, hence the same idempotency key.
  const approvalId = `${state.run_id}:save_memory-${state.tool_calls.length + 1}`;
  const outcome = await saveMemoryWithApproval(
    { text: proposed, approvalId, principal, threadId: state.thread_id },
    deps,
  );
  const answer: Answer = {
    answer: outcome.message,
    answerable: true,
    confidence: 1,
    citations: [],
    missing_information: [],
  };
  return {
    update: { answer, status: 'answered' as const, tool_calls: [...state.tool_calls, outcome.call] },
    summary: `save_memory ${outcome.summary}`,
  };
}
