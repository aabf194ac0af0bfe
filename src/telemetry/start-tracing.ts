import type { Logger } from '../logging/logger.ts';
import { otlpTracesUrl, serviceNameOf, type TracingEnv } from './otlp-endpoint.ts';
import { activeTracing, setActiveTracing } from './tracing-state.ts';

export interface StartTracingOptions {
  /** Where `OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT` and `OTEL_SERVICE_NAME` are read (default `process.env`). */
  env?: TracingEnv;
  /** Put the question (and a search's query) into run and search spans (`tracing.recordQuestions`; default off). */
  recordQuestions?: boolean;
  logger?: Logger;
}

/** One holder's share of the process's tracing: `close()` flushes and, for the last holder, shuts the exporter down. */
export interface TracingHandle {
  readonly active: boolean;
  close(): Promise<void>;
}

interface Session {
  holders: number;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const OFF: TracingHandle = { active: false, close: async () => undefined };
let session: Promise<Session> | undefined;

/**
 * Starts exporting spans over OTLP/HTTP (JSON) when an endpoint is set, once per process: every Evident of the process
 * shares the provider (the first one's settings hold), and the last to close flushes the spans still batched and
 * unregisters it. With no endpoint nothing is loaded or registered: the API stays on its no-op tracer and every span
 * helper returns at its first check.
 */
export async function startTracing(options: StartTracingOptions = {}): Promise<TracingHandle> {
  const env = options.env ?? process.env;
  const url = otlpTracesUrl(env);
  if (!url) return OFF;
  const opening = (session ??= openSession(url, serviceNameOf(env), options).catch((error: unknown) => {
    session = undefined;
    throw error;
  }));
  const current = await opening;
  current.holders += 1;
  let closed = false;
  return {
    active: true,
    async close() {
      if (closed) return;
      closed = true;
      current.holders -= 1;
      if (current.holders > 0) {
        await current.flush();
        return;
      }
      if (session === opening) session = undefined;
      await current.shutdown();
    },
  };
}

async function openSession(url: string, serviceName: string, options: StartTracingOptions): Promise<Session> {
  // The API, the SDK and the exporter are loaded only when tracing is on: a process without an endpoint never pays for them.
  const [api, { AsyncLocalStorageContextManager }, { OTLPTraceExporter }, { resourceFromAttributes }, sdk] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('./async-context-manager.ts'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
    ]);
  const { BatchSpanProcessor, TracerProvider } = sdk;
  const { context, diag, DiagLogLevel, trace } = api;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url, ...exportTimeout(options.env ?? process.env) }),
      }),
    ],
  });
  const logger = options.logger;
  if (logger) {
    // A receiver that is down or refuses spans is worth a warning, never a failed run.
    diag.setLogger(
      {
        error: (message) => logger.warn('tracing export failed', { detail: message }),
        warn: (message) => logger.warn('tracing', { detail: message }),
        info: () => undefined,
        debug: () => undefined,
        verbose: () => undefined,
      },
      DiagLogLevel.WARN,
    );
  }
  const contextManager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  setActiveTracing({
    tracer: provider.getTracer('evident'),
    recordQuestions: options.recordQuestions ?? false,
    api,
  });
  return {
    holders: 0,
    flush: () => provider.forceFlush(),
    async shutdown() {
      // Unregistered at once, so a new Evident of the process may start its own while the last spans are sent.
      setActiveTracing(undefined);
      trace.disable();
      context.disable();
      try {
        await provider.shutdown();
      } catch (error) {
        logger?.warn('tracing shutdown failed', { error: String(error) });
      } finally {
        // Unless a new session of the process has set its own logger meanwhile.
        if (logger && session === undefined) diag.disable();
      }
    },
  };
}

/**
 * A collector that is down must not hold a CLI command at its exit for the exporter's 10 s (and retries): 3 s per
 * export here, unless `OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT` says otherwise (the exporter reads those itself).
 */
const EXPORT_TIMEOUT_MS = 3000;
const exportTimeout = (env: TracingEnv): { timeoutMillis?: number } =>
  env.OTEL_EXPORTER_OTLP_TIMEOUT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT?.trim()
    ? {}
    : { timeoutMillis: EXPORT_TIMEOUT_MS };

/** Whether this process exports spans now (for status output and tests). */
export const tracingActive = (): boolean => activeTracing() !== undefined;
