/**
 * The JSON of the admin routes, as the UI reads it: the server's own types (type-only imports, erased from the bundle).
 */
import type { SessionJson } from '../../../src/server/schemas/session-json.ts';
import type { ApiKeyJson, CreatedApiKeyJson, UserJson } from '../../../src/server/schemas/user-json.ts';

export type AdminUser = UserJson;
export type ApiKeySummary = ApiKeyJson;
export type CreatedApiKey = CreatedApiKeyJson;
export type Role = UserJson['roles'][number];

/** A signed-in browser session as `GET /v1/sessions` lists it (never its token), and a page of them. */
export type SessionSummary = SessionJson;
export interface SessionPage {
  sessions: SessionSummary[];
  next_cursor: string | null;
}
