import type { SharedStateType } from '../core/shared-state.ts';
import type { Step } from '../../domain/step.ts';
import { stepEventOf } from '../core/step-event.ts';
import type { StepEvent } from '../../domain/step-event.ts';
import type { ReactStateType, ReactUpdate } from './react-state.ts';

/** A react node's step event: the shared fields, with only the tool calls this node made (the loop makes many). */
export function reactStepEvent(step: Step, update: ReactUpdate, state: ReactStateType): StepEvent {
  // The nodes write plain values (never LangGraph's Overwrite wrapper), so the update reads as partial state.
  const event = stepEventOf(step, update as Partial<SharedStateType>);
  const calls = update.tool_calls as ReactStateType['tool_calls'] | undefined;
  if (calls && step.node !== 'load_memory') {
    const added = calls.slice(state.tool_calls.length);
    if (added.length) event.tool_calls = added;
    else delete event.tool_calls;
  }
  return event;
}
