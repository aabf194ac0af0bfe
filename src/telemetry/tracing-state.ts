import type * as OtelApi from '@opentelemetry/api';

/**
 * What the spans read of the process's tracing: its tracer, whether questions go into attributes, and the OpenTelemetry
 * API (loaded by `startTracing` with the SDK, so a process without an endpoint never loads it).
 */
export interface ActiveTracing {
  readonly tracer: OtelApi.Tracer;
  readonly recordQuestions: boolean;
  readonly api: typeof OtelApi;
}

let active: ActiveTracing | undefined;

/** The process's tracing while it is on; undefined when off, which every span helper checks first and costs nothing. */
export const activeTracing = (): ActiveTracing | undefined => active;

/** Set by `startTracing`, cleared by the last `close()`. */
export const setActiveTracing = (tracing: ActiveTracing | undefined): void => {
  active = tracing;
};
