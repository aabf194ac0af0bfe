import type { SharedStateType } from '../core/shared-state.ts';
import type { Step } from '../../domain/step.ts';
import { stepEventOf } from '../core/step-event.ts';
import type { StepEvent } from '../../domain/step-event.ts';
import type { ControllableStateType, ControllableUpdate } from './controllable-state.ts';

/** What a controllable step shows beyond the shared fields: the plan, the task and its tool, the verdicts. */
export interface ControllableStepEvent extends StepEvent {
  plan?: string[];
  task?: string;
  tool?: string;
  query?: string;
  relevant?: boolean;
  grounded?: boolean;
}

/**
 * A controllable node's step event: the shared fields (evidence ids, tool calls, status), with only the tool calls
 * this node made, and ids, tasks and verdicts rather than retrieved text.
 */
export function controllableStepEvent(step: Step, update: ControllableUpdate, state: ControllableStateType): StepEvent {
  // The nodes write plain values (never LangGraph's Overwrite wrapper), so the update reads as partial state.
  const written = update as Partial<ControllableStateType>;
  const event: ControllableStepEvent = stepEventOf(step, written);
  if (written.tool_calls) {
    const added = written.tool_calls.slice(state.tool_calls.length);
    if (added.length) event.tool_calls = added;
    else delete event.tool_calls;
  }
  if (step.node === 'planner' || step.node === 'deanonymize_plan' || step.node === 'replan')
    event.plan = written.plan ?? [];
  if (step.node === 'task_handler') {
    if (written.curr_task) event.task = written.curr_task;
    if (written.tool) event.tool = written.tool;
  }
  if (written.query_to_retrieve_or_answer) event.query = written.query_to_retrieve_or_answer;
  if (typeof written.relevant === 'boolean') event.relevant = written.relevant;
  if (typeof written.grounded === 'boolean') event.grounded = written.grounded;
  return event;
}
