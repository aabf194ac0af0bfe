import type { Attributes, Span } from '@opentelemetry/api';
import { inSpan } from './in-span.ts';
import { currentAgent } from './run-span.ts';
import { activeTracing } from './tracing-state.ts';

/** A span per graph node execution (`node <name>`), under its run's span, naming the node and the agent. */
export function inNodeSpan<T>(node: string, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!activeTracing()) return work(undefined);
  const agent = currentAgent();
  return inSpan(`node ${node}`, work, { 'evident.node': node, ...(agent ? { 'evident.agent': agent } : {}) });
}

/** Fields of a node's update that are never counted: the run's own trace and bookkeeping. */
const UNCOUNTED = new Set(['steps', 'principal']);

/**
 * What a node reports, as counts only: `evident.node.<field>_count` for each list it wrote (evidence, candidates,
 * sub_questions, tool_calls, errors…), the answer's citation count and whether it is answerable, and the status it
 * set. Never a value of a list, never text.
 */
export function nodeCountAttributes(update: object): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(update)) {
    if (UNCOUNTED.has(key)) continue;
    if (Array.isArray(value)) attributes[`evident.node.${key}_count`] = value.length;
  }
  const answer = (update as { answer?: { answerable?: unknown; citations?: unknown } | null }).answer;
  if (answer && typeof answer === 'object') {
    if (typeof answer.answerable === 'boolean') attributes['evident.node.answerable'] = answer.answerable;
    if (Array.isArray(answer.citations)) attributes['evident.node.citations_count'] = answer.citations.length;
  }
  const answerability = (update as { answerability?: { answerable?: unknown } | null }).answerability;
  if (answerability && typeof answerability.answerable === 'boolean')
    attributes['evident.node.answerable'] = answerability.answerable;
  const status = (update as { status?: unknown }).status;
  if (typeof status === 'string' && STATUS.test(status)) attributes['evident.node.status'] = status;
  return attributes;
}

/** A status is a short lowercase word (`running`, `answered`, `refused`…): anything else is not copied. */
const STATUS = /^[a-z_]{1,32}$/;
