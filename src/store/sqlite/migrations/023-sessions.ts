import type { Migration } from './migration.ts';

/**
 * Browser sessions (only the SHA-256 hash of a session's token is kept; `id` is its public id for listing and
 * revoking) with their absolute and idle ends, and the one-time states of the OpenID Connect sign-in flow (the
 * state's hash, its nonce and PKCE verifier). Deleting a user deletes their sessions.
 */
export const sessions: Migration = {
  version: 23,
  name: 'sessions',
  up: (db) => {
    db.exec(`
      CREATE TABLE sessions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        token_hash TEXT NOT NULL UNIQUE,
        user_name TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE,
        via TEXT NOT NULL CHECK (via IN ('key', 'oidc')),
        csrf_token TEXT NOT NULL,
        id_token TEXT,
        idle_ms INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        idle_expires_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sessions_user ON sessions(user_name, seq);
      CREATE INDEX sessions_expiry ON sessions(expires_at);
      CREATE TABLE sign_in_states (
        state_hash TEXT PRIMARY KEY,
        nonce TEXT NOT NULL,
        code_verifier TEXT NOT NULL,
        return_to TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sign_in_states_expiry ON sign_in_states(expires_at);
    `);
  },
};
