import { context, createContextKey, type Attributes, type Span } from '@opentelemetry/api';
import { inSpan } from './in-span.ts';
import { activeTracing } from './tracing-state.ts';

const AGENT = createContextKey('evident.agent');

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
  return context.with(context.active().setValue(AGENT, start.agent), () =>
    inSpan(`run ${start.agent}`, work, attributes),
  );
}

/** `evident.question` when questions are recorded (a run's question, a search's query), else nothing. */
export function questionAttributes(question: string): Attributes {
  return activeTracing()?.recordQuestions ? { 'evident.question': question } : {};
}

/** The agent whose run is the active context's (undefined outside a run: a node under test, a direct search). */
export const currentAgent = (): string | undefined => {
  const agent = context.active().getValue(AGENT);
  return typeof agent === 'string' ? agent : undefined;
};
