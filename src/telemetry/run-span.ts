import type { Attributes, Span } from '@opentelemetry/api';
import { inSpan } from './in-span.ts';
import { activeTracing, type ActiveTracing } from './tracing-state.ts';

/** The context key of the run's agent (`createContextKey` is `Symbol.for`: the same key on every call). */
const agentKey = (tracing: ActiveTracing): symbol => tracing.api.createContextKey('evident.agent');

export interface RunSpanStart {
  agent: string;
  runId: string;
  threadId: string;
  attempt: number;
  /** The run's question: an attribute only when `tracing.recordQuestions` is on. */
  question: string;
}

/**
 * The root span of one run execution (`run <agent>`). Its context also carries the agent's name, so each node span
 * below it names the agent without the node being told.
 */
export function inRunSpan<T>(start: RunSpanStart, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  const tracing = activeTracing();
  if (!tracing) return work(undefined);
  const attributes: Attributes = {
    'evident.agent': start.agent,
    'evident.run_id': start.runId,
    'evident.thread_id': start.threadId,
    'evident.run.attempt': start.attempt,
    ...questionAttributes(start.question),
  };
  const { context } = tracing.api;
  return context.with(context.active().setValue(agentKey(tracing), start.agent), () =>
    inSpan(`run ${start.agent}`, work, attributes),
  );
}

/** `evident.question` when questions are recorded (a run's question, a search's query), else nothing. */
export function questionAttributes(question: string): Attributes {
  return activeTracing()?.recordQuestions ? { 'evident.question': question } : {};
}

/**
 * The agent whose run is the active context's (undefined outside a run: a node under test, a direct search; and with
 * tracing off, when no run span set it).
 */
export const currentAgent = (): string | undefined => {
  const tracing = activeTracing();
  if (!tracing) return undefined;
  const agent = tracing.api.context.active().getValue(agentKey(tracing));
  return typeof agent === 'string' ? agent : undefined;
};
