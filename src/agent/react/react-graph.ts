import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { END, START, StateGraph } from '@langchain/langgraph';
import { citationCheck } from '../core/nodes/citation-check.ts';
import { loadMemory } from '../core/nodes/load-memory.ts';
import { finalize } from '../core/nodes/finalize.ts';
import { evidenceGate } from '../core/nodes/evidence-gate.ts';
import { rewrite } from '../core/nodes/rewrite.ts';
import { act } from './nodes/act.ts';
import { reason } from './nodes/reason.ts';
import { saveMemory } from './nodes/save-memory.ts';
import { stop } from './nodes/stop.ts';
import type { ReactDeps } from './react-deps.ts';
import { afterAct, afterCitationCheck, afterReason, afterTools } from './react-routes.ts';
import { ReactState, reactRunStart, type ReactStateType, type ReactUpdate } from './react-state.ts';
import { reactStepEvent } from './react-step-event.ts';
import { traced } from '../core/traced.ts';

/**
 * The `react` graph: load_memory → rewrite → reason ⇒ (act | save_memory) ⇒ … reason, until a final answer ⇒
 * citation_check (retry: back to reason) → finalize, or the iteration bound ⇒ stop → finalize. The shared nodes
 * (core/nodes) load the memory, rewrite follow-ups, check citations and finalize; the wiring is the same with and
 * without a model.
 */
export function buildReactGraph(deps: ReactDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const node = (
    name: string,
    run: (state: ReactStateType, deps: ReactDeps) => Promise<{ update: ReactUpdate; summary: string }>,
  ) => traced<ReactStateType, ReactUpdate, ReactDeps>(name, run, deps, reactStepEvent);
  const graph = new StateGraph(ReactState)
    .addNode('load_memory', node('load_memory', loadMemory(reactRunStart)))
    .addNode('rewrite', node('rewrite', rewrite))
    .addNode('reason', node('reason', reason))
    .addNode('act', node('act', act))
    .addNode('save_memory', node('save_memory', saveMemory))
    .addNode('citation_check', node('citation_check', citationCheck))
    .addNode('stop', node('stop', stop))
    .addNode('evidence_gate', node('evidence_gate', evidenceGate))
    .addNode('finalize', node('finalize', finalize))
    .addEdge(START, 'load_memory')
    .addEdge('load_memory', 'rewrite')
    .addEdge('rewrite', 'reason')
    .addConditionalEdges('reason', afterReason(deps), {
      check: 'citation_check',
      done: 'evidence_gate',
      stop: 'stop',
      act: 'act',
      save: 'save_memory',
      reason: 'reason',
    })
    .addConditionalEdges('act', afterAct, { save: 'save_memory', reason: 'reason' })
    .addConditionalEdges('save_memory', afterTools, { act: 'act', save: 'save_memory', reason: 'reason' })
    .addConditionalEdges('citation_check', afterCitationCheck(deps), {
      done: 'evidence_gate',
      stop: 'stop',
      reason: 'reason',
    })
    .addEdge('stop', 'evidence_gate')
    .addEdge('evidence_gate', 'finalize')
    .addEdge('finalize', END);
  return graph.compile(options.checkpointer ? { checkpointer: options.checkpointer } : {});
}

export type ReactGraph = ReturnType<typeof buildReactGraph>;
