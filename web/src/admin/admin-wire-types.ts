/**
 * The JSON of the admin routes, as the UI reads it: the server's own types (type-only imports, erased from the bundle).
 */
import type { ApiKeyJson, CreatedApiKeyJson, UserJson } from '../../../src/server/schemas/user-json.ts';

export type AdminUser = UserJson;
export type ApiKeySummary = ApiKeyJson;
export type CreatedApiKey = CreatedApiKeyJson;
export type Role = UserJson['roles'][number];

/**
 * A signed-in browser session as `GET /v1/sessions` lists it: who, how they signed in (`key`, `oidc`), and when it
 * started, was last used and ends. Never the session's secret.
 */
export interface SessionSummary {
  id: string;
  user: string;
  via: string;
  created_at: string;
  last_seen_at: string | null;
  expires_at: string;
}

export interface SessionPage {
  sessions: SessionSummary[];
  next_cursor: string | null;
}
