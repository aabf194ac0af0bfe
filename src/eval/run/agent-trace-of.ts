import type { PendingAction } from '../../domain/approval.ts';
import type { AgentDefinition } from '../../runs/agent-definition.ts';
import {
  docIdOfChunk,
  uniqueInOrder,
  type AgentTrace,
  type TraceEvidence,
  type TraceToolCall,
} from '../../runs/run-trace.ts';
import { knowledgeBaseInputSchema, saveMemoryInputSchema } from '../../agent/react/react-tools.ts';
import { tableQueryInputSchema } from '../../agent/core/tools/table-query.ts';

/** Shared tools whose argument schemas are known without the agent declaring them. */
const SHARED_TOOL_SCHEMAS: Readonly<Record<string, { safeParse(value: unknown): { success: boolean } }>> = {
  table_query: tableQueryInputSchema,
  knowledge_base: knowledgeBaseInputSchema,
  save_memory: saveMemoryInputSchema,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

function evidenceOf(value: unknown): TraceEvidence[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isRecord).map((item) => {
    const chunkId = stringOr(item.chunk_id, '');
    return { chunk_id: chunkId, doc_id: stringOr(item.doc_id, docIdOfChunk(chunkId)), text: stringOr(item.text, '') };
  });
}

const argumentsValidity = (name: string, args: Record<string, unknown>): { arguments_valid?: boolean } => {
  const schema = SHARED_TOOL_SCHEMAS[name];
  return schema ? { arguments_valid: schema.safeParse(args).success } : {};
};

function toolCallsOf(value: unknown): TraceToolCall[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isRecord).map((call) => {
    const name = stringOr(call.name, '');
    const args = isRecord(call.arguments) ? call.arguments : {};
    return { name, arguments: args, ok: call.ok === true, ...argumentsValidity(name, args) };
  });
}

/**
 * The layers every agent's state shares, for an agent without its own `trace`: the standalone question, the evidence
 * (also the kept docs), the answer, tool calls, status and errors. The ranking before rerank is not among them, so
 * retrieval is `n/a` for such an agent.
 */
export function traceFromSharedState(values: Record<string, unknown>): AgentTrace {
  const evidence = evidenceOf(values.evidence);
  return {
    // Every state has the field; an agent that never rewrites leaves it empty, and its rewrite layer is n/a.
    standalone_question:
      typeof values.standalone_question === 'string' && values.standalone_question !== ''
        ? values.standalone_question
        : null,
    retrieved_doc_ids: null,
    kept_doc_ids: evidence ? uniqueInOrder(evidence.map((item) => item.doc_id)) : null,
    evidence,
    answer: values.answer ?? null,
    tool_calls: toolCallsOf(values.tool_calls),
    status: stringOr(values.status, 'failed'),
    errors: Array.isArray(values.errors)
      ? values.errors.filter(isRecord).map((error) => ({
          node: stringOr(error.node, ''),
          code: stringOr(error.code, ''),
          message: stringOr(error.message, ''),
        }))
      : [],
  };
}

/** The agent's own trace when it has one, else what the shared state fields say. */
export const agentTraceOf = (agent: AgentDefinition, values: Record<string, unknown>): AgentTrace =>
  agent.trace ? agent.trace(values) : traceFromSharedState(values);

/**
 * A run that stopped for an approval: its status is `interrupted` (the state still says running) and the side effects
 * it proposed count as calls in its trajectory, since the agent chose them; they are marked pending, not ok.
 */
export function withPendingActions(trace: AgentTrace, pending: readonly PendingAction[]): AgentTrace {
  if (pending.length === 0) return trace;
  const proposed = pending.map((action) => ({
    name: action.tool,
    arguments: action.args,
    ok: false,
    pending: true,
    ...argumentsValidity(action.tool, action.args),
  }));
  return {
    ...trace,
    status: 'interrupted',
    tool_calls: trace.tool_calls === null ? null : [...trace.tool_calls, ...proposed],
  };
}
