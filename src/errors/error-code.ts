/**
 * Every code Evident raises, one union so a typo or a new code without a class fails to type-check. Codes are
 * stable: clients, the HTTP status mapping and tests branch on them, so rename none.
 */
export type ErrorCode =
  // Input and configuration: the caller fixes the request, the flags or the config.
  | 'invalid_input'
  | 'config_invalid'
  | 'payload_too_large'
  | 'input_too_large'
  | 'not_found'
  | 'document_file_unavailable'
  | 'unknown_agent'
  | 'client_closed'
  // Access: who is asking, and what they may see or do.
  | 'unauthorized'
  | 'forbidden'
  | 'thread_forbidden'
  | 'namespace_forbidden'
  | 'assistant_read_only'
  | 'thread_state_read_only'
  // A state-changing request made with the session cookie, without its CSRF token or from another site.
  | 'csrf_rejected'
  // Sign-in through the OpenID provider: refused at one of its steps.
  | 'oidc_sign_in_failed'
  // Assistants: a create that names a taken id.
  | 'assistant_exists'
  // The directory (SCIM): a create or rename names a user or group that exists.
  | 'directory_conflict'
  // Threads and runs: the request is fine, but the thread or run is not in a state that allows it now.
  | 'thread_exists'
  | 'thread_busy'
  | 'too_many_runs'
  | 'thread_interrupted'
  | 'thread_agent_mismatch'
  | 'no_pending_approval'
  | 'run_not_running'
  | 'run_not_finished'
  | 'run_event_conflict'
  | 'run_lease_lost'
  | 'run_orphaned'
  | 'run_failed'
  // Webhooks: the deployment has no webhooks.secret, so a run that names a webhook is refused.
  | 'webhooks_disabled'
  | 'cancelled'
  // Ingest: one file's reason; the rest of the batch goes on.
  | IngestErrorCode
  // Sources being synced (folders, web sites): the root or a fetch.
  | SourceErrorCode
  // Table queries: refused before running, or stopped.
  | 'query_rejected'
  | 'query_timeout'
  | 'query_too_large'
  // Models and the index built with them.
  | 'provider_failed'
  | 'structured_output_invalid'
  | 'embedder_mismatch'
  // A client adapter's Evident server: it did not answer (its refusals keep the server's own codes).
  | 'server_unreachable'
  // System: the store or a bug; clients see only the public form.
  | 'store_failed'
  | 'internal';

/** Why a source (a folder or a web site being synced) or one of its fetches could not be read. */
export type SourceErrorCode = 'source_invalid' | 'source_refused' | 'source_unavailable' | 'source_limit_exceeded';

/** Why a file could not be ingested. */
export type IngestErrorCode =
  | 'file_empty'
  | 'file_too_large'
  | 'file_unsupported'
  | 'file_encoding'
  | 'pdf_corrupt'
  | 'pdf_encrypted'
  | 'ocr_unavailable'
  | 'ocr_failed'
  | 'ocr_timeout'
  | 'file_corrupt'
  | 'file_unreadable'
  | 'path_not_found'
  | 'file_changed'
  | 'file_limit_exceeded'
  | 'doc_id_invalid'
  | 'acl_invalid'
  | 'acl_unreadable'
  | 'acl_empty';

// A record, not a list: adding a code to the union without listing it here fails to type-check.
const KNOWN: Record<ErrorCode, true> = {
  invalid_input: true,
  config_invalid: true,
  payload_too_large: true,
  input_too_large: true,
  not_found: true,
  document_file_unavailable: true,
  unknown_agent: true,
  client_closed: true,
  unauthorized: true,
  forbidden: true,
  thread_forbidden: true,
  namespace_forbidden: true,
  assistant_read_only: true,
  thread_state_read_only: true,
  csrf_rejected: true,
  oidc_sign_in_failed: true,
  assistant_exists: true,
  directory_conflict: true,
  thread_exists: true,
  thread_busy: true,
  too_many_runs: true,
  thread_interrupted: true,
  thread_agent_mismatch: true,
  no_pending_approval: true,
  run_not_running: true,
  run_not_finished: true,
  run_event_conflict: true,
  run_lease_lost: true,
  run_orphaned: true,
  run_failed: true,
  webhooks_disabled: true,
  cancelled: true,
  file_empty: true,
  file_too_large: true,
  file_unsupported: true,
  file_encoding: true,
  pdf_corrupt: true,
  pdf_encrypted: true,
  ocr_unavailable: true,
  ocr_failed: true,
  ocr_timeout: true,
  file_corrupt: true,
  file_unreadable: true,
  path_not_found: true,
  file_changed: true,
  file_limit_exceeded: true,
  doc_id_invalid: true,
  acl_invalid: true,
  acl_unreadable: true,
  acl_empty: true,
  source_invalid: true,
  source_refused: true,
  source_unavailable: true,
  source_limit_exceeded: true,
  query_rejected: true,
  query_timeout: true,
  query_too_large: true,
  provider_failed: true,
  structured_output_invalid: true,
  embedder_mismatch: true,
  server_unreachable: true,
  store_failed: true,
  internal: true,
};

/** Every code, for checks on codes read back from outside (a recorded run event, a client's reply). */
export const ERROR_CODES = Object.keys(KNOWN) as readonly ErrorCode[];

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(KNOWN, value);
