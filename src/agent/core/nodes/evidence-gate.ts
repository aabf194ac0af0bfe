import type { Answer } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { RunStatus } from '../../../domain/run-state.ts';
import type { ToolCallRecord } from '../../../domain/step.ts';
import { gateAnswer, type GateThresholds } from '../evidence-gate/evidence-gate.ts';
import { answeredByTable, computedByTable, selectedColumns } from '../evidence-gate/table-fit.ts';

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
  /** rag's offline hop chains: the questions they resolved are readings of one need, not needs of their own. */
  hop_chains?: readonly { resolved: readonly string[] }[];
}

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
  deps: { evidenceGate?: 'enforce' | 'off'; gateThresholds?: GateThresholds },
) {
  const answer = state.answer;
  if (!answer) return { update: {}, summary: 'no answer' };
  const decision = gateAnswer({
    question: state.standalone_question || state.question,
    answer,
    evidence: state.evidence,
    computed: computedByTable(
      state.tool_calls,
      state.evidence.filter((item) => answer.citations.some((citation) => citation.chunk_id === item.chunk_id)),
    ),
    computedFrom: selectedColumns(state.tool_calls),
    needs: needsOf(state),
    tableValue: computedByTable(state.tool_calls),
    fromTable: answeredByTable(state.tool_calls, answer),
    sideEffect: state.tool_calls.some((call) => call.name === 'save_memory'),
    reground: state.mode === 'offline',
    ...(deps.gateThresholds ? { thresholds: deps.gateThresholds } : {}),
  });
  if (deps.evidenceGate === 'off')
    return {
      update: {},
      summary: `off (agents.evidenceGate): would ${decision.verdict}: ${decision.reason}`,
    };
  if (decision.verdict === 'refuse')
    return {
      update: { answer: decision.answer, status: (state.status === 'running' ? 'running' : 'refused') as RunStatus },
      summary: `refused: ${decision.reason}`,
    };
  return { update: { answer: decision.answer }, summary: `${decision.verdict}: ${decision.reason}` };
}
