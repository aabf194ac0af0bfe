import type { AIMessage } from '@langchain/core/messages';
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { refusal, type Answer } from '../../domain/answer.ts';
import { CITE_BY_ID, formatConversation, formatMemories } from '../core/llm-prompts.ts';
import { repairCitations } from '../core/model-evidence.ts';
import { verdictFromJudgement } from '../core/model-judgement.ts';
import { withInstructions } from '../core/model-or-offline.ts';
import type { Evidence } from '../../domain/evidence.ts';
import { describeTables } from '../core/tools/table-query.ts';
import { nativeTurnMessages, readNativeReply } from './native-protocol.ts';
import type { Decision } from './react-decision.ts';
import type { ReactDeps } from './react-deps.ts';
import type { ReactStateType } from './react-state.ts';
import { answerOf, toolDefinitions, type FinalAnswer } from './react-tools.ts';
import { parseTextReply, textProtocolInstructions, textTurnMessages } from './text-protocol.ts';

const ROLE =
  "You answer questions about an organisation's documents by reasoning step by step and calling tools. " +
  'Search with knowledge_base before answering. Answer only from what the tools returned: cite every claim with the chunk_id of a ' +
  'knowledge_base passage and a quote copied exactly from it. If the evidence does not state the answer, answer with answerable ' +
  'false and name the missing information. The conversation and the memories are context, never evidence. ' +
  'Before answering, extract the sentences that state the answer (supporting, by chunk_id) and judge their sufficiency (0 to 1). ' +
  CITE_BY_ID;

/** Whether this run talks to the model through its native tool calling. */
export const usesNativeTools = (deps: ReactDeps): boolean =>
  deps.protocol === 'native' || (deps.protocol === 'auto' && typeof deps.chat?.model.bindTools === 'function');

/** The prompt of one iteration: the role and protocol, the context, the question, then the loop so far. */
async function messagesFor(state: ReactStateType, deps: ReactDeps, native: boolean): Promise<BaseMessage[]> {
  // Only the tables this principal may see are described; none are named to anyone else.
  const tables = state.principal ? await deps.store.listTables(state.principal) : [];
  const system = [
    ROLE,
    native ? '' : textProtocolInstructions(),
    tables.length ? `Tables table_query can read:\n${describeTables(tables)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const conversation = formatConversation(state.history_summary, state.history);
  const context = `${formatMemories(state.memories)}${conversation ? `Conversation so far (context, not evidence):\n${conversation}\n\n` : ''}`;
  const render = native ? nativeTurnMessages : textTurnMessages;
  return [
    new SystemMessage(withInstructions(system, deps.instructions)),
    new HumanMessage(`${context}Question: ${state.standalone_question || state.question}`),
    ...state.scratchpad.flatMap((turn) => render(turn)),
  ];
}

/**
 * The model's final answer read with the semantics every agent's model path shares (extract, judge, answer): when it
 * reports a sufficiency, its extracted sentences are kept only where the evidence contains them and the answer is
 * answerable exactly at `isSufficient` (an insufficient one becomes a refusal naming what is missing, whatever the
 * model's own `answerable`); citations naming a wrong id are re-pointed to the chunk holding their quote.
 */
export function modelFinalAnswer(final: FinalAnswer, evidence: readonly Evidence[], question: string): Answer {
  if (final.sufficiency !== undefined) {
    const verdict = verdictFromJudgement(
      question,
      {
        supporting: final.supporting ?? [],
        sufficiency: final.sufficiency,
        reasons: [],
        missing_information: final.missing_information,
      },
      evidence,
    );
    if (!verdict.answerable) return refusal(verdict.missing_information);
    final = { ...final, answerable: true };
  }
  return repairCitations(answerOf(final, evidence), evidence).answer;
}

/** One iteration with the chat model: native tool calls, or the text protocol stopped before the observation. */
export async function modelDecision(state: ReactStateType, deps: ReactDeps, iteration: number): Promise<Decision> {
  const chat = deps.chat;
  if (!chat) throw new Error('react: modelDecision needs a chat model');
  const native = usesNativeTools(deps);
  const messages = await messagesFor(state, deps, native);
  const withAnswer = (decision: Decision): Decision => {
    const final = decision.calls.map(({ call }) => call).find((call) => call.ok && call.kind === 'final');
    if (!final || !final.ok || final.kind !== 'final') return decision;
    return {
      ...decision,
      answer: modelFinalAnswer(final.answer, state.evidence, state.standalone_question || state.question),
    };
  };
  if (native && chat.model.bindTools) {
    const reply = (await chat.model.bindTools(toolDefinitions()).invoke(messages)) as AIMessage;
    const read = readNativeReply(reply, iteration);
    return withAnswer({
      thought: read.thought,
      raw: read.raw,
      calls: read.calls,
      ...(read.problem ? { problem: read.problem } : {}),
    });
  }
  const reply = await chat.model.invoke(messages, { stop: ['\nObservation:'] });
  const parsed = parseTextReply(reply.text);
  return withAnswer({
    thought: parsed.thought,
    raw: parsed.raw || reply.text,
    calls: parsed.action
      ? [{ id: `call-${iteration}-0`, name: parsed.action.name, args: parsed.action.args, call: parsed.action.call }]
      : [],
    ...(parsed.problem
      ? { problem: `${parsed.problem} Use the format: Thought / Action / Action Input, or Thought / Final Answer.` }
      : {}),
  });
}
