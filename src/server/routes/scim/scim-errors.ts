import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ValidationError } from '../../../errors/index.ts';
import { errorResponse } from '../../error-response.ts';
import { SCIM_ERROR, SCIM_MEDIA_TYPE, type ScimType } from './scim-schemas.ts';

/** A request SCIM refuses with a `scimType` (RFC 7644 §3.12): a ValidationError carrying it in its details. */
export const scimInvalid = (scimType: ScimType, message: string, hint: string): ValidationError =>
  new ValidationError(message, { hint, details: { scimType } });

const SCIM_TYPE_BY_CODE: Partial<Record<string, ScimType>> = {
  directory_conflict: 'uniqueness',
  input_too_large: 'tooMany',
};

/** The SCIM error body (`urn:ietf:params:scim:api:messages:2.0:Error`) for any error, as the server maps its status. */
export function scimErrorBody(error: unknown): { status: ContentfulStatusCode; body: Record<string, unknown> } {
  const { status: mapped, body } = errorResponse(error);
  const details = (error as { details?: { scimType?: unknown; status?: unknown } } | null)?.details;
  // A precondition (If-Match) that failed: 412, RFC 7644 §3.14.
  const status = details?.status === 412 && mapped === 400 ? 412 : mapped;
  const scimType =
    typeof details?.scimType === 'string'
      ? details.scimType
      : (SCIM_TYPE_BY_CODE[body.error.code] ??
        (body.error.code === 'invalid_input' && status === 400 ? 'invalidValue' : undefined));
  const detail = body.error.hint ? `${body.error.message} ${body.error.hint}` : body.error.message;
  return {
    status,
    body: { schemas: [SCIM_ERROR], status: String(status), ...(scimType ? { scimType } : {}), detail },
  };
}

/** A SCIM JSON response (`application/scim+json`). */
export function scimJson(c: Context, body: unknown, status: ContentfulStatusCode = 200): Response {
  return c.body(JSON.stringify(body), status, { 'content-type': `${SCIM_MEDIA_TYPE}; charset=utf-8` });
}

export function scimErrorResponse(c: Context, error: unknown): Response {
  const { status, body } = scimErrorBody(error);
  return scimJson(c, body, status);
}
