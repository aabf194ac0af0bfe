import type { Principal } from '../domain/index.ts';
import type { Evident } from '../evident.ts';
import { RecordingChatModel, type RecordedCall, type ScriptedAnswer } from './recording-chat-model.ts';
import { buildControllableGraph } from '../agent/controllable/controllable-graph.ts';
import { isStepStreamChunk, type StepEvent } from '../domain/step-event.ts';
import type { ControllableDeps } from '../agent/controllable/controllable-deps.ts';
import type { ControllableStateType } from '../agent/controllable/controllable-state.ts';
import { createTableQueryTool } from '../agent/core/tools/table-query.ts';

/** A reply per model step (the structured-output schema name), in order; a step without replies left fails loudly. */
export type StepScript = Partial<Record<string, (ScriptedAnswer | ((call: RecordedCall) => ScriptedAnswer))[]>>;

/** A recording model that answers each call from the script of the step that made it. */
export function scriptedByStep(script: StepScript, maxCalls = 100): RecordingChatModel {
  const reply = (call: RecordedCall): ScriptedAnswer => {
    const step = call.schemaName ?? '(none)';
    const next = script[step]?.shift();
    if (next === undefined) throw new Error(`no scripted reply left for ${step}; prompt:\n${call.prompt}`);
    return typeof next === 'function' ? next(call) : next;
  };
  return new RecordingChatModel(Array.from({ length: maxCalls }, () => reply));
}

/** Keeps every item the keep_relevant prompt lists. */
export const keepAll = (call: RecordedCall): ScriptedAnswer => ({
  relevant_ids: [...call.prompt.matchAll(/\[id: ([^\]]+)\]/g)].map((match) => match[1] as string),
});

export interface ControllableRun {
  state: ControllableStateType;
  events: StepEvent[];
}

/** Runs the graph once (no checkpointer) and collects its step events from the `custom` stream. */
export async function runControllable(
  evident: Evident,
  question: string,
  principal: Principal,
  options: { model?: RecordingChatModel; deps?: Partial<ControllableDeps> } = {},
): Promise<ControllableRun> {
  const graph = buildControllableGraph({
    search: evident.search,
    store: evident.store,
    embedder: evident.embedder,
    tableQuery: createTableQueryTool({ store: evident.store, limits: evident.config.tables }),
    evidenceGate: evident.config.agents.evidenceGate,
    gateThresholds: evident.config.agents.evidenceGateThresholds,
    topK: evident.retrieval.topK,
    ...evident.config.agents.controllable,
    ...options.deps,
    ...(options.model ? { chat: { id: 'fake:recording', model: options.model } } : {}),
  });
  const events: StepEvent[] = [];
  let state: ControllableStateType | undefined;
  const stream = await graph.stream(
    { question, principal, thread_id: 'thread-test', run_id: 'run-test' },
    { streamMode: ['custom', 'values'] },
  );
  for await (const [mode, chunk] of stream) {
    if (mode === 'custom' && isStepStreamChunk(chunk)) events.push(chunk.event);
    else if (mode === 'values') state = chunk as ControllableStateType;
  }
  if (!state) throw new Error('the run produced no state');
  return { state, events };
}

export const nodesOf = (run: ControllableRun): string[] => run.state.steps.map((step) => step.node);
export const countOf = (run: ControllableRun, node: string): number =>
  nodesOf(run).filter((name) => name === node).length;
