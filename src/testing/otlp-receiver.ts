import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP/HTTP JSON export carries it, flattened for assertions. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  serviceName: string;
  attributes: Record<string, unknown>;
  startNs: bigint;
  durationMs: number;
  /** 0 unset, 1 ok, 2 error (OTLP's StatusCode). */
  statusCode: number;
}

/** A real OTLP/HTTP receiver on 127.0.0.1: it accepts `POST /v1/traces` (JSON, gzip or not) and keeps every request. */
export interface OtlpReceiver {
  /** The base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it. */
  readonly endpoint: string;
  /** Every request body as received (decompressed): what left the process, byte for byte. */
  readonly bodies: string[];
  spans(): ReceivedSpan[];
  /** Resolves once at least `count` spans have arrived (a batch is sent on a timer or at shutdown). */
  waitForSpans(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  clear(): void;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    void readBody(request).then(
      (body) => {
        if (
          request.method !== 'POST' ||
          request.url !== '/v1/traces' ||
          !/json/.test(request.headers['content-type'] ?? '')
        ) {
          response.writeHead(404).end();
          return;
        }
        bodies.push(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        for (const wake of waiters) wake();
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const spans = () => bodies.flatMap((body) => decodeOtlpJson(body));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies,
    spans,
    waitForSpans(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = spans();
          if (found.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} spans, received ${spans().length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    clear: () => void bodies.splice(0),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  return (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpAttribute[];
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const valueOf = (value: OtlpValue): unknown => {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
};
const attributesOf = (list: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** The spans of one OTLP/HTTP JSON export request (ExportTraceServiceRequest). */
export function decodeOtlpJson(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as OtlpExport;
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => {
        const startNs = BigInt(span.startTimeUnixNano);
        return {
          name: span.name,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          serviceName,
          attributes: attributesOf(span.attributes),
          startNs,
          durationMs: Number(BigInt(span.endTimeUnixNano) - startNs) / 1e6,
          statusCode: span.status?.code ?? 0,
        };
      }),
    );
  });
}
