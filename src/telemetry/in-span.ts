import type { Attributes, Span, SpanStatusCode } from '@opentelemetry/api';
import { activeTracing } from './tracing-state.ts';

/**
 * Runs `work` inside a span that is the active context's child and the parent of spans `work` starts. With tracing
 * off it only calls `work(undefined)`: no span, no context, no allocation beyond the caller's own. Callers set their
 * counts on the span (`span?.setAttributes`) once they know them. A failure marks the span with the error's code or
 * class only: an error message may quote input, and no attribute carries text.
 */
export function inSpan<T>(
  name: string,
  work: (span: Span | undefined) => Promise<T>,
  attributes?: Attributes,
): Promise<T> {
  const tracing = activeTracing();
  if (!tracing) return work(undefined);
  return tracing.tracer.startActiveSpan(name, attributes ? { attributes } : {}, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A span that starts and ends around synchronous work (RRF fusion, dedupe), under the active span. */
export function inSyncSpan<T>(name: string, work: (span: Span | undefined) => T): T {
  const tracing = activeTracing();
  if (!tracing) return work(undefined);
  return tracing.tracer.startActiveSpan(name, (span) => {
    try {
      return work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * `SpanStatusCode.ERROR` (2 in the API as in OTLP): a constant here, so the API itself loads only with tracing on (a
 * span exists only then).
 */
export const SPAN_STATUS_ERROR: SpanStatusCode.ERROR = 2;

/** `error.type` is the error's stable code when it has one (`invalid_input`), else its class name. */
export function markFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  const type = typeof code === 'string' ? code : error instanceof Error ? error.name : typeof error;
  span.setAttribute('error.type', type);
  span.setStatus({ code: SPAN_STATUS_ERROR, message: type });
}
