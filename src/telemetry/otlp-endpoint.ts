import { ConfigError } from '../errors/index.ts';

/** The environment the OTLP settings are read from. */
export type TracingEnv = Record<string, string | undefined>;

/**
 * Where spans go, by the OpenTelemetry convention: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`; undefined (tracing off) when neither is set or both are empty.
 * Anything but an http(s) URL is a ConfigError: a typo must not silently turn tracing off.
 */
export function otlpTracesUrl(env: TracingEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return checked('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces);
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${checked('OTEL_EXPORTER_OTLP_ENDPOINT', base).replace(/\/+$/, '')}/v1/traces`;
}

/** `OTEL_SERVICE_NAME`, else `evident`. */
export const serviceNameOf = (env: TracingEnv): string => env.OTEL_SERVICE_NAME?.trim() || 'evident';

function checked(name: string, url: string): string {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    throw new ConfigError(`${name} is not an http(s) URL.`, {
      hint: `Set it to the OTLP/HTTP receiver, e.g. ${name}=http://127.0.0.1:4318${name.endsWith('TRACES_ENDPOINT') ? '/v1/traces' : ''}, or unset it to turn tracing off.`,
    });
  }
  return url;
}
