import { apiErrorOfStreamEvent, type ApiError } from '../api/api-error.ts';
import type { PendingAction, AgentValues, StepEvent } from '../api/wire-types.ts';

export type RunPhase = 'streaming' | 'finished' | 'interrupted' | 'failed';

/** One run as it streams: its steps as they complete, the model's tokens, the latest state, a pending approval. */
export interface RunView {
  phase: RunPhase;
  /** The question that started it; absent when the run resumes an approval. */
  question: string | undefined;
  runId: string | undefined;
  steps: StepEvent[];
  /** Token text per graph node, in arrival order, while a chat model streams. */
  tokens: { node: string; text: string }[];
  values: AgentValues | undefined;
  pending: PendingAction | undefined;
  error: ApiError | undefined;
}

export type RunAction =
  | { type: 'started'; question: string | undefined }
  | { type: 'event'; event: string; data: unknown }
  | { type: 'failed'; error: ApiError }
  | { type: 'closed' }
  /** Another thread was chosen: its run is no longer shown. */
  | { type: 'cleared' };

export const startRun = (question: string | undefined): RunView => ({
  phase: 'streaming',
  question,
  runId: undefined,
  steps: [],
  tokens: [],
  values: undefined,
  pending: undefined,
  error: undefined,
});

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export const isPendingAction = (value: unknown): value is PendingAction =>
  isObject(value) && typeof value.tool === 'string' && typeof value.approval_id === 'string' && isObject(value.args);

/** The pending action among LangGraph interrupts (`[{id, value}]`), if one is an approval request. */
export function pendingActionOf(interrupts: unknown): PendingAction | undefined {
  if (!Array.isArray(interrupts)) return undefined;
  return interrupts.map((item: unknown) => (isObject(item) ? item.value : undefined)).find(isPendingAction);
}

/** The text of a message chunk: a string, or the text parts of a content array. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function withTokens(tokens: RunView['tokens'], node: string, text: string, replace: boolean): RunView['tokens'] {
  if (!text) return tokens;
  const last = tokens[tokens.length - 1];
  if (last && last.node === node) return [...tokens.slice(0, -1), { node, text: replace ? text : last.text + text }];
  return [...tokens, { node, text }];
}

/**
 * Folds one event of a LangGraph run stream into the view. `messages` (tuple mode: `[chunk, metadata]`) appends a
 * token chunk; `messages/partial` carries the message so far and replaces it.
 */
function onEvent(view: RunView, event: string, data: unknown): RunView {
  switch (event) {
    case 'metadata':
      return isObject(data) && typeof data.run_id === 'string' ? { ...view, runId: data.run_id } : view;
    case 'custom':
      return isObject(data) && data.type === 'step' && isObject(data.event)
        ? { ...view, steps: [...view.steps, data.event as unknown as StepEvent] }
        : view;
    case 'updates': {
      const pending = isObject(data) ? pendingActionOf(data.__interrupt__) : undefined;
      return pending ? { ...view, pending } : view;
    }
    case 'values': {
      if (!isObject(data)) return view;
      const pending = pendingActionOf(data.__interrupt__);
      return { ...view, values: data as AgentValues, ...(pending ? { pending } : {}) };
    }
    case 'messages':
    case 'messages/partial': {
      if (!Array.isArray(data)) return view;
      const [message, metadata] = data as [unknown, unknown];
      if (!isObject(message)) return view;
      const node =
        isObject(metadata) && typeof metadata.langgraph_node === 'string' ? metadata.langgraph_node : 'model';
      return { ...view, tokens: withTokens(view.tokens, node, textOf(message.content), event === 'messages/partial') };
    }
    case 'error':
      return { ...view, phase: 'failed', error: apiErrorOfStreamEvent(data) };
    default:
      return view;
  }
}

export function runReducer(view: RunView | undefined, action: RunAction): RunView | undefined {
  if (action.type === 'started') return startRun(action.question);
  if (action.type === 'cleared' || !view) return undefined;
  switch (action.type) {
    case 'event':
      return onEvent(view, action.event, action.data);
    case 'failed':
      return { ...view, phase: 'failed', error: action.error };
    case 'closed':
      if (view.phase === 'failed') return view;
      return { ...view, phase: view.pending ? 'interrupted' : 'finished' };
  }
}
