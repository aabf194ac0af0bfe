import type { PostgresMigration } from './migration.ts';

/**
 * Browser sessions (only the SHA-256 hash of a session's token is kept; `id` is its public id for listing and
 * revoking) with their absolute and idle ends, and the one-time states of the OpenID Connect sign-in flow (the
 * state's hash, its nonce and PKCE verifier). Deleting a user deletes their sessions.
 */
export const sessions: PostgresMigration = {
  version: 24,
  name: 'sessions',
  up: () => `
    CREATE TABLE sessions (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id text NOT NULL UNIQUE,
      token_hash text NOT NULL UNIQUE,
      user_name text NOT NULL REFERENCES users(name) ON DELETE CASCADE,
      via text NOT NULL CHECK (via IN ('key', 'oidc')),
      csrf_token text NOT NULL,
      id_token text,
      idle_ms bigint NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      idle_expires_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX sessions_user ON sessions (user_name, seq);
    CREATE INDEX sessions_expiry ON sessions (expires_at);
    CREATE TABLE sign_in_states (
      state_hash text PRIMARY KEY,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      return_to text NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX sign_in_states_expiry ON sign_in_states (expires_at);
  `,
};
