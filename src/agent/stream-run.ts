import { INTERRUPT } from '@langchain/langgraph';
import type { RagGraph } from './rag/rag-graph.ts';
import type { RagStateType } from './core/state.ts';
import { isStepStreamChunk, type StepEvent } from './core/step-event.ts';

type StreamInput = Parameters<RagGraph['stream']>[0];

/**
 * Runs the graph with LangGraph's streaming (`custom` + `values`): each node's step event reaches `onStep` as the
 * node completes, and the result is what `invoke` returns, the final values with `__interrupt__` when the run
 * stopped for an approval.
 */
export async function streamRun(
  graph: RagGraph,
  input: StreamInput,
  configurable: Record<string, string>,
  onStep: (event: StepEvent) => void,
): Promise<RagStateType> {
  let values: RagStateType | undefined;
  const stream = await graph.stream(input, { streamMode: ['custom', 'values'], configurable });
  for await (const [mode, chunk] of stream) {
    if (mode === 'custom') {
      if (isStepStreamChunk(chunk)) onStep(chunk.event);
    } else if (typeof chunk === 'object' && chunk !== null && INTERRUPT in chunk) {
      // An interrupt arrives as a values chunk of its own; invoke returns it merged into the last values.
      if (values) values = Object.assign({}, values, { [INTERRUPT]: (chunk as Record<string, unknown>)[INTERRUPT] });
    } else {
      values = chunk as RagStateType;
    }
  }
  if (!values) throw new Error('rag: the run produced no state');
  return values;
}
