import type { z } from 'zod';
import { RemoteError, ServerUnreachableError, UnauthorizedError, ValidationError } from '../../errors/index.ts';
import type { SearchResultJson } from '../../retrieval/search-result-json.ts';
import {
  DEFAULT_ADAPTER_AGENT,
  type AdapterAskOptions,
  type AdapterSearchOptions,
  type AskResultJson,
  type EvidentConnection,
} from './evident-connection.ts';
import { completionResponseSchema, errorResponseSchema, searchResponseSchema } from './http-wire.ts';

/** An Evident server and the API key of the principal to act as (`evident keys create <user>`). */
export interface HttpTarget {
  /** The server root, e.g. `http://127.0.0.1:8080`. */
  url: string;
  apiKey: string;
  /** How long one request may take before it is abandoned (an ask waits for the whole run); 120 s by default. */
  timeoutMs?: number;
  /** A fetch to use instead of the global one (a proxy, a test). */
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** The request header that continues a thread on /v1/chat/completions (`THREAD_HEADER` of the server). */
const THREAD_HEADER = 'x-evident-thread-id';

function serverRoot(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(`${JSON.stringify(url)} is not a URL.`, {
      hint: 'Pass the server root, e.g. http://127.0.0.1:8080.',
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ValidationError(`The Evident URL must be http or https, got ${parsed.protocol}`, {
      hint: 'Pass the server root, e.g. http://127.0.0.1:8080.',
    });
  }
  return parsed.href.replace(/\/+$/, '');
}

/**
 * Evident over HTTP as the key's principal: `POST /v1/search` and `POST /v1/chat/completions`. The server resolves
 * the key and filters by that principal's permissions, so this client holds no rights of its own. A bad key is an
 * UnauthorizedError, a refusal the server's own code (RemoteError), no answer a ServerUnreachableError.
 */
export function httpConnection(target: HttpTarget): EvidentConnection {
  const root = serverRoot(target.url);
  if (typeof target.apiKey !== 'string' || target.apiKey.trim() === '') {
    throw new ValidationError('An Evident API key is required.', {
      hint: 'Create one with `evident keys create <user>` and pass it as `apiKey`.',
    });
  }
  const doFetch = target.fetch ?? fetch;
  const timeoutMs = target.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function post<T>(
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    headers: Record<string, string> = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(root + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        (error as Error)?.name === 'TimeoutError' ? `did not answer within ${timeoutMs} ms` : 'could not be reached';
      throw new ServerUnreachableError(root, reason, error);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (response.status === 401) throw new UnauthorizedError();
    if (!response.ok) {
      const failure = errorResponseSchema.safeParse(json);
      const error = failure.success ? failure.data.error : {};
      throw new RemoteError({
        status: response.status,
        ...(error.code ? { code: error.code } : {}),
        ...(error.message ? { message: error.message } : {}),
        ...(error.hint ? { hint: error.hint } : {}),
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ServerUnreachableError(root, `answered ${path} with something other than Evident's response`);
    return parsed.data;
  }

  return {
    target: root,
    async search(query: string, options: AdapterSearchOptions = {}): Promise<SearchResultJson[]> {
      const body = {
        query,
        ...(options.topK ? { top_k: options.topK } : {}),
        ...(options.channels ? { channels: options.channels } : {}),
      };
      return (await post('/v1/search', body, searchResponseSchema)).results as SearchResultJson[];
    },
    async ask(question: string, options: AdapterAskOptions = {}): Promise<AskResultJson> {
      const body = { model: options.agent ?? DEFAULT_ADAPTER_AGENT, messages: [{ role: 'user', content: question }] };
      const headers = options.threadId === undefined ? {} : { [THREAD_HEADER]: options.threadId };
      const { evident } = await post('/v1/chat/completions', body, completionResponseSchema, headers);
      return evident as AskResultJson;
    },
  };
}
