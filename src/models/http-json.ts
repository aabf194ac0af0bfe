import { ProviderError } from '../errors/index.ts';
import { normalizeInPlace } from './unit-vector.ts';

export interface PostJsonOptions {
  /** Provider name used in error messages, e.g. `ollama:nomic-embed-text`. */
  provider: string;
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Extra advice per HTTP status (e.g. 404 → how to install the model). */
  hints?: Partial<Record<number, string>>;
  /** Advice when the server cannot be reached at all. */
  unreachableHint: string;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** POSTs JSON and returns the parsed JSON answer; every failure is a ProviderError that says what to do. */
export async function postJson(options: PostJsonOptions): Promise<unknown> {
  const { provider, url } = options;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (cause) {
    const timedOut = cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
    throw new ProviderError(provider, timedOut ? `${url} did not answer in time.` : `cannot reach ${url}.`, {
      cause,
      hint: options.unreachableHint,
    });
  }
  const text = await response.text();
  if (!response.ok) {
    const hint =
      options.hints?.[response.status] ??
      (response.status === 401 || response.status === 403
        ? 'Check the API key.'
        : response.status === 429
          ? 'The service is rate limiting; retry later or lower the batch size.'
          : 'Check the service logs.');
    throw new ProviderError(provider, `${url} answered HTTP ${response.status}: ${errorText(text)}`, {
      hint,
      details: { status: response.status },
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new ProviderError(provider, `${url} answered with something that is not JSON.`, {
      cause,
      hint: 'Check that the URL points at the embedding API itself.',
    });
  }
}

/** The error message inside a JSON error body, else the first characters of the body. */
function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    const error = parsed.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  const trimmed = body.trim().slice(0, 200);
  return trimmed || '(empty body)';
}

/** Validates a JSON array of numbers and returns it as a unit-length Float32Array. */
export function toUnitVector(value: unknown, provider: string): Float32Array {
  if (!Array.isArray(value) || value.length === 0 || !value.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new ProviderError(provider, 'answered with an embedding that is not a list of numbers.', {
      hint: 'Check that the model is an embedding model.',
    });
  }
  return normalizeInPlace(Float32Array.from(value as number[]));
}
