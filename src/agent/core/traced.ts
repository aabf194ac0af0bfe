import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Principal } from '../../domain/index.ts';
import type { PrincipalStore } from '../../store/store.ts';
import { inNodeSpan, nodeCountAttributes } from '../../telemetry/node-span.ts';
import { refreshedPrincipal } from '../../runs/current-principal.ts';
import type { Step } from '../../domain/step.ts';
import { stepEventOf, type StepUpdate } from './step-event.ts';
import type { StepEvent, StepStreamChunk } from '../../domain/step-event.ts';

/** A node's result: the partial state it writes, and a one-line summary for the run's steps. */
export interface TracedResult<U> {
  update: U;
  summary: string;
}

/**
 * Wraps a node so that every execution appends a step (node, start, end, summary) to the run's trace, and writes it
 * to the `custom` stream as it completes (a no-op unless the caller streams that mode). Generic over the state, so
 * every agent whose state carries `steps` (and the shared fields a step event shows) traces its nodes the same way;
 * `eventOf` lets an agent say what its step events show (default: the shared fields). Before each node runs, the
 * run's principal is read again from the store, so no node of any agent retrieves, calls a tool or reads memory
 * with permissions the principal no longer has. With tracing on, each execution is also a span (`node <name>`) under
 * the run's, carrying the counts the node's update reports (never its text).
 */
export function traced<
  S extends { steps: Step[]; principal: Principal | null },
  U extends object,
  D extends { store: Pick<PrincipalStore, 'getUser'> },
>(
  name: string,
  node: (state: S, deps: D) => Promise<TracedResult<U>>,
  deps: D,
  eventOf: (step: Step, update: U, state: S) => StepEvent = (step, update) => stepEventOf(step, update as StepUpdate),
) {
  return (state: S, config?: LangGraphRunnableConfig): Promise<U> =>
    inNodeSpan(name, async (span) => {
      const start = new Date();
      const began = performance.now();
      const { principal, changed } = await refreshedPrincipal(deps.store, state.principal);
      const { update, summary } = await node(changed ? { ...state, principal } : state, deps);
      const step: Step = {
        node: name,
        start: start.toISOString(),
        end: new Date().toISOString(),
        duration_ms: Math.round((performance.now() - began) * 100) / 100,
        summary,
      };
      // load_memory resets the steps of the thread's previous run; every other node appends.
      const written = (update as { steps?: unknown }).steps;
      const base = Array.isArray(written) ? (written as Step[]) : state.steps;
      // The nodes write plain values (never LangGraph's Overwrite wrapper), so the update reads as partial state.
      const chunk: StepStreamChunk = { type: 'step', event: eventOf(step, update, state) };
      config?.writer?.(chunk);
      span?.setAttributes({ ...nodeCountAttributes(update), 'evident.duration_ms': step.duration_ms });
      return { ...update, ...(changed ? { principal } : {}), steps: [...base, step] };
    });
}
