import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ModelNotFoundError } from '../../../errors/index.ts';
import { errorResponse } from '../../error-response.ts';

/** An error as OpenAI's API sends it, so OpenAI clients raise their typed errors with our message. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; code: string; param: null };
}

/** OpenAI's codes where a client may branch on them; Evident's own code otherwise. */
const OPENAI_CODES: Record<string, string> = { unauthorized: 'invalid_api_key' };

function typeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/** The body of an error with its status. The message carries Evident's hint: OpenAI's shape has no field for it. */
export function openAiErrorBody(code: string, message: string, hint: string | null, status: number): OpenAiErrorBody {
  return {
    error: {
      message: hint ? `${message} ${hint}` : message,
      type: typeOf(status),
      code: OPENAI_CODES[code] ?? code,
      param: null,
    },
  };
}

/** Any thrown error in OpenAI's shape, with the status (and the care about what it reveals) of the rest of the API. */
export function openAiErrorResponse(error: unknown): { status: ContentfulStatusCode; body: OpenAiErrorBody } {
  const { status, body } = errorResponse(error);
  // A 404 with OpenAI's `model_not_found`, which OpenAI clients know.
  const code = ModelNotFoundError.isInstance(error) ? 'model_not_found' : body.error.code;
  return { status, body: openAiErrorBody(code, body.error.message, body.error.hint, status) };
}
