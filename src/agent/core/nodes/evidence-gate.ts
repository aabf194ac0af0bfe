import type { Answer } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { RunStatus } from '../../../domain/run-state.ts';
import type { ToolCallRecord } from '../../../domain/step.ts';
import { gateAnswer, type GateThresholds } from '../evidence-gate/evidence-gate.ts';
import { answeredByTable, computedByTable, lastTableSql, selectedColumns } from '../evidence-gate/table-fit.ts';
import type { Principal } from '../../../domain/index.ts';
import type { SharedDeps } from '../shared-deps.ts';
import { recheckOverTables } from '../tools/table-recheck.ts';

/** What the gate reads of a run: the question, its needs, what it found and answered, and its tool calls. */
export interface GatedRun {
  question: string;
  standalone_question: string;
  sub_questions: string[];
  evidence: Evidence[];
  answer: Answer | null;
  tool_calls: ToolCallRecord[];
  status: RunStatus;
  mode: string;
  principal: Principal | null;
  /** rag's offline hop chains: the questions they resolved are readings of one need, not needs of their own. */
  hop_chains?: readonly { resolved: readonly string[] }[];
}

/** A value the gate could not read in a sentence but recomputed over the cited table, as sure as a computed one. */
const RECHECKED_CONFIDENCE = 0.85;

/** The needs the run split the question into, without the hop chains' resolved readings of the one it nests. */
const needsOf = (state: GatedRun): string[] =>
  state.sub_questions.filter((question) => !state.hop_chains?.some((chain) => chain.resolved.includes(question)));

/**
 * The last step before finalize in every agent's graph (agent/evidence-gate-everywhere.test.ts checks that none finalizes
 * around it); `agents.evidenceGate: off` only records its verdict (for measuring what the agents propose without it):
 * the answer, whatever produced it, passes the evidence gate (core/evidence-gate) — narrowed to the one value the
 * cited evidence ties to the question, or turned into a refusal that says what is missing.
 */
export async function evidenceGate(
  state: GatedRun,
  deps: Partial<Pick<SharedDeps, 'store' | 'tableQuery'>> & {
    evidenceGate?: 'enforce' | 'off';
    gateThresholds?: GateThresholds;
  },
): Promise<{ update: { answer?: Answer; status?: RunStatus; tool_calls?: ToolCallRecord[] }; summary: string }> {
  const answer = state.answer;
  if (!answer) return { update: {}, summary: 'no answer' };
  const question = state.standalone_question || state.question;
  const cited = state.evidence.filter((item) =>
    answer.citations.some((citation) => citation.chunk_id === item.chunk_id),
  );
  const gated = gateAnswer({
    question,
    answer,
    evidence: state.evidence,
    computed: computedByTable(state.tool_calls, cited),
    computedFrom: selectedColumns(state.tool_calls),
    computedSql: lastTableSql(state.tool_calls),
    needs: needsOf(state),
    tableValue: computedByTable(state.tool_calls),
    fromTable: answeredByTable(state.tool_calls, answer),
    sideEffect: state.tool_calls.some((call) => call.name === 'save_memory'),
    reground: state.mode === 'offline',
    ...(deps.gateThresholds ? { thresholds: deps.gateThresholds } : {}),
  });
  // A value no cited sentence states may still be the one the cited table computes to (a model's count).
  const recheck =
    gated.verdict === 'refuse' && !gated.final && state.principal && deps.store && deps.tableQuery
      ? await recheckOverTables(question, answer, cited, state.principal, {
          store: deps.store,
          tableQuery: deps.tableQuery,
        })
      : undefined;
  const decision = recheck
    ? {
        verdict: 'answer' as const,
        answer: { ...answer, confidence: Math.min(answer.confidence, RECHECKED_CONFIDENCE) },
        reason: `recomputed over the cited table: ${recheck.summary}`,
      }
    : gated;
  const toolCalls = recheck ? { tool_calls: [...state.tool_calls, recheck.call] } : {};
  if (deps.evidenceGate === 'off')
    return {
      update: toolCalls,
      summary: `off (agents.evidenceGate): would ${decision.verdict}: ${decision.reason}`,
    };
  if (decision.verdict === 'refuse')
    return {
      update: {
        answer: decision.answer,
        status: (state.status === 'running' ? 'running' : 'refused') as RunStatus,
      },
      summary: `refused: ${decision.reason}`,
    };
  return { update: { answer: decision.answer, ...toolCalls }, summary: `${decision.verdict}: ${decision.reason}` };
}
