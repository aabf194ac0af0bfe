import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { otlpTracesUrl, serviceNameOf } from './otlp-endpoint.ts';

describe('the OTLP endpoint from the environment', () => {
  it('is off when neither endpoint variable is set (or both are empty)', () => {
    expect(otlpTracesUrl({})).toBeUndefined();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' })).toBeUndefined();
  });

  it('appends /v1/traces to the generic endpoint and takes the traces endpoint as it is, which wins', () => {
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector/otlp/' })).toBe(
      'https://collector/otlp/v1/traces',
    );
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/traces',
      }),
    ).toBe('http://b:9999/traces');
  });

  it('refuses what is not an http(s) URL with a config error naming the variable and the fix', () => {
    for (const [name, value] of [
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
      ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'grpc://collector:4317'],
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'http://'],
    ] as const) {
      expect(() => otlpTracesUrl({ [name]: value })).toThrow(
        expect.objectContaining({
          code: 'config_invalid',
          message: expect.stringContaining(name),
          hint: expect.stringContaining('unset it'),
        }),
      );
    }
  });

  it('names the service evident unless OTEL_SERVICE_NAME says otherwise', () => {
    expect(serviceNameOf({})).toBe('evident');
    expect(serviceNameOf({ OTEL_SERVICE_NAME: 'rag-prod' })).toBe('rag-prod');
  });
});

describe('tracing.recordQuestions', () => {
  it('is off by default, and EVIDENT_TRACE_QUESTIONS or the config file turns it on', () => {
    expect(loadConfig({ env: {} }).tracing.recordQuestions).toBe(false);
    expect(loadConfig({ env: { EVIDENT_TRACE_QUESTIONS: '1' } }).tracing.recordQuestions).toBe(true);
    expect(loadConfig({ env: {}, flags: { tracing: { recordQuestions: true } } }).tracing.recordQuestions).toBe(true);
    expect(() => loadConfig({ env: {}, flags: { tracing: { recordQuestions: 'yes' } as never } })).toThrow(
      /tracing\.recordQuestions/,
    );
  });
});
