/** An error the UI shows: what happened and, when the server gave one, what to do about it. */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly code: string;
  readonly hint: string | undefined;

  constructor(
    message: string,
    options: { code: string; status?: number | undefined; hint?: string | null | undefined },
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = options.code;
    this.status = options.status;
    this.hint = options.hint ?? undefined;
  }
}

interface ErrorBody {
  error: { code: string; message: string; hint?: string | null };
}

const isErrorBody = (value: unknown): value is ErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ErrorBody).error === 'object' &&
  (value as ErrorBody).error !== null &&
  typeof (value as ErrorBody).error.message === 'string';

/** The error of a failed response's text: Evident's `{error: {code, message, hint}}`, else the status alone. */
export function apiErrorOfBody(status: number, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isErrorBody(body))
    return new ApiError(body.error.message, { code: body.error.code, status, hint: body.error.hint });
  return new ApiError(`The server answered ${status}.`, {
    code: `http_${status}`,
    status,
    hint: text.trim().slice(0, 200) || undefined,
  });
}

export async function apiErrorOfResponse(response: Response): Promise<ApiError> {
  return apiErrorOfBody(response.status, await response.text());
}

// The LangGraph SDK throws `HTTPError`s whose message is `HTTP <status>: <response text>`.
const SDK_HTTP_ERROR = /^HTTP (\d{3}): ([\s\S]*)$/;

/** Any thrown value as an ApiError: SDK HTTP errors keep the server's code and hint; network failures say so. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof Error) {
    const http = SDK_HTTP_ERROR.exec(error.message);
    if (http) return apiErrorOfBody(Number(http[1]), http[2] ?? '');
    if (error.name === 'TypeError') {
      return new ApiError(`Could not reach the server (${error.message}).`, {
        code: 'network',
        hint: 'Check that `npm start` is still running.',
      });
    }
    return new ApiError(error.message, { code: error.name || 'error' });
  }
  return new ApiError(String(error), { code: 'error' });
}

/** The data of an SSE `error` event: a run's `{error, message}`, or Evident's `{error: {code, message, hint}}`. */
export function apiErrorOfStreamEvent(data: unknown): ApiError {
  if (isErrorBody(data)) return new ApiError(data.error.message, { code: data.error.code, hint: data.error.hint });
  if (typeof data === 'object' && data !== null) {
    const { error, message, hint } = data as { error?: unknown; message?: unknown; hint?: unknown };
    return new ApiError(typeof message === 'string' ? message : 'The run failed.', {
      code: typeof error === 'string' ? error : 'run_failed',
      hint: typeof hint === 'string' ? hint : undefined,
    });
  }
  return new ApiError(typeof data === 'string' ? data : 'The run failed.', { code: 'run_failed' });
}
