import { refusal } from '../../domain/answer.ts';
import { informationNeed } from '../offline-qa/information-need.ts';
import { memoryToSave } from '../core/memory/remember-intent.ts';
import { judgeOffline } from '../offline-qa/judge-offline.ts';
import { decomposeOffline } from '../offline-qa/decompose-offline.ts';
import { extractiveAnswer } from '../offline-qa/extractive-answer.ts';
import { formatCell } from '../core/tools/table-query.ts';
import { offlineTablePlan } from '../core/tools/table-query-answer.ts';
import { tableAnswerRefused } from '../core/evidence-gate/table-fit.ts';
import { followUpQuery } from './follow-up-query.ts';
import { actionText, type Decision } from './react-decision.ts';
import type { ReactDeps } from './react-deps.ts';
import type { Observation, ReactStateType, ReactToolName } from './react-state.ts';

/** knowledge_base calls before the offline strategy gives up: the question, then one follow-up hop. */
const MAX_SEARCHES = 2;

const call = (iteration: number, thought: string, tool: ReactToolName, input: Record<string, unknown>): Decision => ({
  thought,
  raw: actionText(thought, tool, input),
  calls: [{ id: `call-${iteration}-0`, name: tool, args: input, call: { ok: true, kind: 'tool', tool, input } }],
});

const answered = (thought: string, answer: Decision['answer']): Decision => ({
  thought,
  raw: `Thought: ${thought}\nFinal Answer: ${answer?.answer ?? ''}`,
  calls: [],
  ...(answer ? { answer } : {}),
});

/** The value of a table_query observation: one cell, or every row. */
function tableValue(observation: Observation): string | undefined {
  const table = observation.table;
  if (!observation.ok || !table || table.rows.length === 0) return undefined;
  if (table.rows.length === 1) return formatCell(table.rows[0]?.at(-1));
  return table.rows.map((row) => row.map(formatCell).join(': ')).join('; ');
}

/**
 * The loop without a model, deterministic and honest: each iteration picks the tool the question calls for (save a
 * "remember that …" fact, an aggregation to table_query, otherwise knowledge_base), reads the observation, and either
 * answers with the offline engine's answerability test and extractive answer (offline-qa), searches once more for the next hop, or refuses.
 */
export async function offlineDecision(state: ReactStateType, deps: ReactDeps, iteration: number): Promise<Decision> {
  const question = state.standalone_question || state.question;
  const last = state.scratchpad.at(-1);
  const lastCall = last?.calls.at(-1);
  const lastObservation = last?.observations.find((o) => o.call_id === lastCall?.id);
  const search = (thought: string, query = question) => call(iteration, thought, 'knowledge_base', { query });

  if (!lastCall || !lastObservation) {
    const fact = memoryToSave(state.question);
    if (fact)
      return call(iteration, 'The user asks me to remember a fact; saving it needs their approval.', 'save_memory', {
        text: fact,
      });
    if (state.principal) {
      const plan = await offlineTablePlan(question, state.principal, deps.store);
      if (plan)
        return call(iteration, `An aggregation over ${plan.table}: computed in SQL, not from text.`, 'table_query', {
          sql: plan.sql,
        });
    }
    return search('Search the knowledge base for the evidence.');
  }
  if (lastCall.tool === 'save_memory') {
    return answered('The memory request is settled.', {
      answer: lastObservation.content,
      answerable: true,
      confidence: 1,
      citations: [],
      missing_information: [],
    });
  }
  if (lastCall.tool === 'table_query') {
    const value = tableValue(lastObservation);
    if (value === undefined) return search('The table query gave no answer; search the documents instead.');
    const sql = String(lastCall.input.sql);
    const citations = lastObservation.table?.citations ?? [];
    const rows = lastObservation.table?.source_rows ?? [];
    const shown = rows.length ? ` From the row${rows.length > 1 ? 's' : ''}: ${rows.join('; ')}.` : '';
    const marker = citations.length ? ` ${citations.map((_, i) => `[${i + 1}]`).join('')}` : '';
    const answer = {
      answer: `The result is ${value}.${shown}${marker} (offline: computed by table_query) SQL: ${sql}`,
      answerable: true,
      confidence: 0.9,
      citations,
      missing_information: [],
    };
    // As in rag and controllable: a table answer the evidence gate refuses sends the loop to the documents' text.
    const refused =
      deps.evidenceGate === 'off'
        ? undefined
        : tableAnswerRefused(question, answer, state.evidence, state.tool_calls, deps.gateThresholds);
    if (refused)
      return search(`The table's value does not answer the question (${refused}); search the documents instead.`);
    return answered('table_query computed the value.', answer);
  }
  const needs = decomposeOffline(question);
  const verdict = judgeOffline(needs, state.evidence);
  if (verdict.answerable)
    return answered(
      `The evidence states it: ${verdict.reasons.join('; ')}.`,
      extractiveAnswer(verdict, state.evidence, needs.length),
    );
  // A follow-up hop's query is the question's last hop made standalone ("<bridge entity> first president"): evidence
  // that answers it answers the question.
  const hop = String(lastCall.input.query ?? '');
  if (hop && hop !== question) {
    const hopVerdict = judgeOffline([hop], state.evidence);
    if (hopVerdict.answerable)
      return answered(
        `The evidence for the last hop states it: ${hopVerdict.reasons.join('; ')}.`,
        extractiveAnswer(hopVerdict, state.evidence, 1),
      );
  }
  const searches = state.scratchpad.flatMap((turn) => turn.calls).filter((c) => c.tool === 'knowledge_base').length;
  const next = searches < MAX_SEARCHES ? followUpQuery(question, state.evidence) : undefined;
  if (next) return search(`The evidence names the next thing to look up; search for it: ${next}.`, next);
  const missing = verdict.missing_information.length ? verdict.missing_information : [informationNeed(question)];
  return answered('The evidence does not state the answer.', refusal(missing));
}
