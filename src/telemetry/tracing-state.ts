import type { Tracer } from '@opentelemetry/api';

/** What the spans read of the process's tracing: its tracer, and whether questions go into attributes. */
export interface ActiveTracing {
  readonly tracer: Tracer;
  readonly recordQuestions: boolean;
}

let active: ActiveTracing | undefined;

/** The process's tracing while it is on; undefined when off, which every span helper checks first and costs nothing. */
export const activeTracing = (): ActiveTracing | undefined => active;

/** Set by `startTracing`, cleared by the last `close()`. */
export const setActiveTracing = (tracing: ActiveTracing | undefined): void => {
  active = tracing;
};
