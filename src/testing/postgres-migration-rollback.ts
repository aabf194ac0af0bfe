/** SQL that undoes the sign-in migrations (24: sessions and sign-in states; 25: the directory), newest first. */
export const BEFORE_IDENTITY_MIGRATIONS = `
DROP TABLE directory_groups;
DROP INDEX users_groups, users_external_id, users_name_nocase;
ALTER TABLE users DROP COLUMN active, DROP COLUMN scim_id, DROP COLUMN external_id, DROP COLUMN updated_at;
DROP TABLE sign_in_states;
DROP TABLE sessions;
`;

/**
 * SQL that takes a PostgreSQL store's schema back to before migration 17: no feedback (17), assistants (18), run
 * queue (19), crons (20) or run webhooks (21), memories in their own table rather than store items (22, 23), no
 * sessions or sign-in states (24) and no directory (25: users' active flag and SCIM ids, directory groups). Run with
 * `search_path` set to the store's schema, before undoing older steps, by the tests that open a store of an older
 * schema and check that it upgrades in place. A new migration adds its undoing here.
 */
export const BEFORE_PLATFORM_MIGRATIONS = `${BEFORE_IDENTITY_MIGRATIONS}
DROP TABLE feedback;
DROP TABLE assistant_versions;
DROP TABLE assistants;
ALTER TABLE runs DROP COLUMN assistant_id, DROP COLUMN assistant_version;
ALTER TABLE runs DROP COLUMN multitask_strategy, DROP COLUMN queued_request;
DROP INDEX runs_pending;
DROP TABLE cron_ticks;
DROP TABLE crons;
DROP TABLE run_webhooks;
DROP TABLE store_items;
DROP TABLE store_namespaces;
CREATE TABLE memories (
  pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  user_name text NOT NULL,
  text text NOT NULL,
  vector public.vector NOT NULL,
  source text,
  idempotency_key text,
  created_at timestamptz NOT NULL,
  UNIQUE (user_name, idempotency_key)
);
CREATE INDEX memories_user ON memories (user_name, pk);
`;
