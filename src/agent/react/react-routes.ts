import type { ReactDeps } from './react-deps.ts';
import type { ReactStateType } from './react-state.ts';

/**
 * An answer built on table_query or save_memory alone has no passage to cite (like rag's table and memory answers):
 * it reports a computed value or what became of the memory (saved or rejected). Every other answer goes through the
 * citation check.
 */
export const needsCitationCheck = (state: ReactStateType): boolean =>
  state.evidence.length > 0 ||
  !state.tool_calls.some((call) => call.name === 'save_memory' || (call.ok && call.name === 'table_query'));

/** The next queued call's node, or back to reasoning when the turn's calls are done. */
export const afterTools = (state: ReactStateType): 'act' | 'save' | 'reason' =>
  state.queue[0] ? (state.queue[0].tool === 'save_memory' ? 'save' : 'act') : 'reason';

/** act runs every read-only call up to a save_memory, so what may follow it is that call or the next iteration. */
export const afterAct = (state: ReactStateType): 'save' | 'reason' => (state.queue[0] ? 'save' : 'reason');

/** After an iteration: the answer to its check, the bound to stop, a call to its tool, or (a corrected reply) reason again. */
export const afterReason =
  (deps: ReactDeps) =>
  (state: ReactStateType): 'check' | 'done' | 'stop' | 'act' | 'save' | 'reason' => {
    if (state.answer) return needsCitationCheck(state) ? 'check' : 'done';
    if (state.iterations >= deps.maxIterations) return 'stop';
    return afterTools(state);
  };

/** A checked answer is final; an ungrounded one goes back to the loop with the reasons, while the bound allows. */
export const afterCitationCheck =
  (deps: ReactDeps) =>
  (state: ReactStateType): 'done' | 'stop' | 'reason' =>
    state.answer ? 'done' : state.iterations >= deps.maxIterations ? 'stop' : 'reason';
