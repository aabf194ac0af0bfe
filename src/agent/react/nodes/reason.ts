import type { Answer } from '../../../domain/answer.ts';
import { modelDecision } from '../model-strategy.ts';
import { offlineDecision } from '../offline-strategy.ts';
import type { ReactNode } from '../react-deps.ts';
import type { Observation, ReactStateType, ReactTurn, ToolRequest } from '../react-state.ts';
import { answerOf, FINAL_ANSWER } from '../react-tools.ts';
import { clip, withObservations } from './scratchpad.ts';

/**
 * After the citation check sent an answer back, the final_answer call of the last turn is answered with why: the next
 * iteration reads it as that call's observation.
 */
function withCitationFeedback(state: ReactStateType): ReactTurn[] {
  const last = state.scratchpad.at(-1);
  const final = last?.calls.find(
    (call) => call.tool === FINAL_ANSWER && !last.observations.some((o) => o.call_id === call.id),
  );
  if (state.answer || !final || state.citation_feedback.length === 0) return state.scratchpad;
  const content = `The citations of your final answer were rejected: ${state.citation_feedback.join('; ')}. Cite only chunk_ids of knowledge_base passages, with quotes copied exactly from them.`;
  return withObservations(state.scratchpad, [{ call_id: final.id, tool: FINAL_ANSWER, content, ok: false }]);
}

/**
 * One iteration of the loop: Thought and Action(s), or the final answer, from the model (native tool calls or the text
 * protocol) or the offline strategy. Unusable output never throws: it gets a corrective observation and, like every
 * iteration, counts against the bound.
 */
export const reason: ReactNode = async (state, deps) => {
  const iteration = state.iterations + 1;
  const scratchpad = withCitationFeedback(state);
  const view = { ...state, scratchpad };
  const decision = deps.chat
    ? await modelDecision(view, deps, iteration)
    : await offlineDecision(view, deps, iteration);

  const observations: Observation[] = [];
  let queue: ToolRequest[] = [];
  let answer: Answer | undefined = decision.answer;
  for (const { id, name, call } of decision.calls) {
    if (!call.ok) observations.push({ call_id: id, tool: name, content: call.problem, ok: false });
    else if (call.kind === 'final') answer ??= answerOf(call.answer, state.evidence);
    else queue.push({ id, tool: call.tool, input: call.input });
  }
  if (answer) {
    // The answer ends the loop; calls made beside it are not run, and the transcript says so.
    for (const request of queue)
      observations.push({
        call_id: request.id,
        tool: request.tool,
        content: 'Not run: the final answer was given in the same turn.',
        ok: false,
      });
    queue = [];
  }
  if (decision.problem) observations.push({ call_id: '', tool: '', content: decision.problem, ok: false });
  const turn: ReactTurn = {
    iteration,
    thought: decision.thought,
    raw: decision.raw,
    calls: decision.calls.map(({ id, name, args }) => ({ id, tool: name, input: args })),
    observations,
  };

  const summary = answer
    ? `iteration ${iteration}: final answer (${answer.answerable ? 'answerable' : 'not answerable'}, ${answer.citations.length} citation(s))`
    : queue.length
      ? `iteration ${iteration}: ${clip(decision.thought, 100)} → ${queue.map((request) => `${request.tool} ${clip(JSON.stringify(request.input), 120)}`).join(', ')}`
      : `iteration ${iteration}: corrective observation: ${clip(observations.map((o) => o.content).join(' '), 200)}`;
  return {
    update: {
      scratchpad: [...scratchpad, turn],
      queue,
      iterations: iteration,
      ...(answer ? { answer } : {}),
      ...(decision.errors?.length ? { errors: [...state.errors, ...decision.errors] } : {}),
    },
    summary,
  };
};
