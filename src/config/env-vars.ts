import { agentBoundsSchemas, type AgentBoundsName } from './agents-schema.ts';
import { limitBoundsSchema, limitEnvName, type LimitName } from './limits-schema.ts';

export type Env = Record<string, string | undefined>;

/** One `EVIDENT_*` variable: the config path it sets and how its text becomes a value. */
export interface EnvVar {
  /** The first one set wins (`EVIDENT_OPENAI_API_KEY`, then `OPENAI_API_KEY`). */
  names: readonly string[];
  path: readonly string[];
  parse: (text: string) => unknown;
}

const text = (value: string): string => value;
/** An empty variable counts as unset; anything else that is not a number fails validation as NaN. */
const num = (value: string): number | undefined => (value === '' ? undefined : Number(value));
/** A comma-separated list; empty items are dropped, and an empty list counts as unset. */
const list = (value: string): string[] | undefined => {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length === 0 ? undefined : items;
};
const flag = (value: string): boolean => ['1', 'true', 'yes'].includes(value.toLowerCase());

const screamingSnake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

/** `agents.<agent>.<key>` ← `EVIDENT_<AGENT>_<KEY>`, e.g. `agents.rag.maxEvidence` ← `EVIDENT_RAG_MAX_EVIDENCE`. */
const agentEnvVars = (Object.keys(agentBoundsSchemas) as AgentBoundsName[]).flatMap((agent) =>
  Object.keys(agentBoundsSchemas[agent].shape).map(
    (key): EnvVar => ({
      names: [`EVIDENT_${screamingSnake(agent)}_${screamingSnake(key)}`],
      path: ['agents', agent, key],
      parse: num,
    }),
  ),
);

/** `limits.<key>` ← `EVIDENT_<KEY>`, e.g. `limits.maxBodyBytes` ← `EVIDENT_MAX_BODY_BYTES`. */
const limitEnvVars = (Object.keys(limitBoundsSchema.shape) as LimitName[]).map(
  (key): EnvVar => ({ names: [limitEnvName(key)], path: ['limits', key], parse: num }),
);

export const ENV_VARS: readonly EnvVar[] = [
  { names: ['EVIDENT_DB'], path: ['db'], parse: text },
  { names: ['EVIDENT_DATABASE_URL'], path: ['databaseUrl'], parse: text },
  { names: ['EVIDENT_DATABASE_READ_URLS'], path: ['databaseReadUrls'], parse: list },
  { names: ['EVIDENT_DOCUMENT_ROOTS'], path: ['documentRoots'], parse: list },
  { names: ['EVIDENT_DATABASE_REPLICA_MAX_LAG_MS'], path: ['database', 'replicaMaxLagMs'], parse: num },
  { names: ['EVIDENT_DATABASE_REPLICA_CHECK_INTERVAL_MS'], path: ['database', 'replicaCheckIntervalMs'], parse: num },
  { names: ['EVIDENT_EMBEDDER'], path: ['embedder'], parse: text },
  { names: ['EVIDENT_RERANKER'], path: ['reranker'], parse: text },
  { names: ['EVIDENT_MODELS_DIR'], path: ['modelsDir'], parse: text },
  { names: ['EVIDENT_OLLAMA_URL'], path: ['ollamaUrl'], parse: text },
  { names: ['EVIDENT_OPENAI_BASE_URL'], path: ['openaiBaseUrl'], parse: text },
  { names: ['EVIDENT_OPENAI_API_KEY', 'OPENAI_API_KEY'], path: ['openaiApiKey'], parse: text },
  { names: ['EVIDENT_LLM'], path: ['llm'], parse: text },
  { names: ['EVIDENT_EVIDENCE_GATE'], path: ['agents', 'evidenceGate'], parse: text },
  { names: ['EVIDENT_LLM_BASE_URL'], path: ['llmBaseUrl'], parse: text },
  { names: ['EVIDENT_LLM_API_KEY'], path: ['llmApiKey'], parse: text },
  { names: ['EVIDENT_VISION'], path: ['vision'], parse: text },
  { names: ['EVIDENT_VISION_BASE_URL'], path: ['visionBaseUrl'], parse: text },
  { names: ['EVIDENT_VISION_API_KEY'], path: ['visionApiKey'], parse: text },
  { names: ['EVIDENT_MAX_FIGURES'], path: ['ingest', 'figures', 'maxPerDocument'], parse: num },
  { names: ['EVIDENT_ADMIN_KEY'], path: ['adminKey'], parse: text },
  { names: ['EVIDENT_AUDIT_QUESTIONS'], path: ['audit', 'questions'], parse: text },
  { names: ['EVIDENT_CHUNK_SIZE'], path: ['chunk', 'size'], parse: num },
  { names: ['EVIDENT_CHUNK_OVERLAP'], path: ['chunk', 'overlap'], parse: num },
  { names: ['EVIDENT_MAX_FILE_BYTES'], path: ['ingest', 'maxFileBytes'], parse: num },
  { names: ['EVIDENT_MAX_EXPANDED_BYTES'], path: ['ingest', 'maxExpandedBytes'], parse: num },
  { names: ['EVIDENT_MAX_ARCHIVE_ENTRIES'], path: ['ingest', 'maxArchiveEntries'], parse: num },
  { names: ['EVIDENT_MAX_XML_ELEMENTS'], path: ['ingest', 'maxXmlElements'], parse: num },
  { names: ['EVIDENT_MAX_NESTING_DEPTH'], path: ['ingest', 'maxNestingDepth'], parse: num },
  { names: ['EVIDENT_MAX_DOCUMENT_SECONDS'], path: ['ingest', 'maxDocumentSeconds'], parse: num },
  { names: ['EVIDENT_MAX_DELETE_SHARE'], path: ['ingest', 'maxDeleteShare'], parse: num },
  { names: ['EVIDENT_MAX_TABLE_CELLS'], path: ['ingest', 'maxTableCells'], parse: num },
  { names: ['EVIDENT_MAX_TABLE_COLUMNS'], path: ['ingest', 'maxTableColumns'], parse: num },
  { names: ['EVIDENT_MAX_DOCUMENT_CHARS'], path: ['ingest', 'maxDocumentChars'], parse: num },
  { names: ['EVIDENT_MAX_DOCUMENT_CHUNKS'], path: ['ingest', 'maxDocumentChunks'], parse: num },
  { names: ['EVIDENT_MAX_SIDECAR_BYTES'], path: ['ingest', 'maxSidecarBytes'], parse: num },
  { names: ['EVIDENT_INGEST_WORKERS'], path: ['ingest', 'workers'], parse: num },
  { names: ['EVIDENT_INGEST_WORKER_MIN_DOCUMENTS'], path: ['ingest', 'workerMinDocuments'], parse: num },
  { names: ['EVIDENT_INGEST_BATCH_DOCUMENTS'], path: ['ingest', 'batchDocuments'], parse: num },
  { names: ['EVIDENT_INGEST_BATCH_BYTES'], path: ['ingest', 'batchBytes'], parse: num },
  { names: ['EVIDENT_INGEST_BATCH_MS'], path: ['ingest', 'batchMs'], parse: num },
  { names: ['EVIDENT_RRF_K'], path: ['retrieval', 'rrfK'], parse: num },
  { names: ['EVIDENT_TOP_K'], path: ['retrieval', 'topK'], parse: num },
  { names: ['EVIDENT_RUN_HEARTBEAT_MS'], path: ['runs', 'heartbeatMs'], parse: num },
  { names: ['EVIDENT_RUN_LEASE_MS'], path: ['runs', 'leaseMs'], parse: num },
  { names: ['EVIDENT_RUNS_MAX_CONCURRENT'], path: ['runs', 'maxConcurrent'], parse: num },
  { names: ['EVIDENT_RUNS_MAX_CONCURRENT_PER_USER'], path: ['runs', 'maxConcurrentPerUser'], parse: num },
  { names: ['EVIDENT_CRON_SCHEDULER'], path: ['crons', 'scheduler'], parse: flag },
  { names: ['EVIDENT_CRON_POLL_MS'], path: ['crons', 'pollMs'], parse: num },
  { names: ['EVIDENT_CRON_MIN_INTERVAL_SECONDS'], path: ['crons', 'minIntervalSeconds'], parse: num },
  { names: ['EVIDENT_CRON_MAX_PER_USER'], path: ['crons', 'maxPerUser'], parse: num },
  { names: ['EVIDENT_CRON_GROUPS'], path: ['crons', 'groups'], parse: list },
  { names: ['EVIDENT_RUN_DETAIL_STREAM_MAX_BYTES'], path: ['runs', 'detailStreamMaxBytes'], parse: num },
  { names: ['EVIDENT_WEBHOOK_SECRET'], path: ['webhooks', 'secret'], parse: text },
  { names: ['EVIDENT_WEBHOOK_ALLOWED_HOSTS'], path: ['webhooks', 'allowedHosts'], parse: list },
  { names: ['EVIDENT_WEBHOOK_ALLOW_HTTP'], path: ['webhooks', 'allowHttp'], parse: flag },
  { names: ['EVIDENT_WEBHOOK_ALLOW_PRIVATE_TARGETS'], path: ['webhooks', 'allowPrivateTargets'], parse: flag },
  { names: ['EVIDENT_SESSIONS_TTL_HOURS'], path: ['sessions', 'ttlHours'], parse: num },
  { names: ['EVIDENT_SESSIONS_IDLE_MINUTES'], path: ['sessions', 'idleMinutes'], parse: num },
  { names: ['EVIDENT_SESSIONS_TRUST_FORWARDED_HEADERS'], path: ['sessions', 'trustForwardedHeaders'], parse: flag },
  { names: ['EVIDENT_TABLE_MAX_ROWS'], path: ['tables', 'maxRows'], parse: num },
  { names: ['EVIDENT_TABLE_TIMEOUT_MS'], path: ['tables', 'timeoutMs'], parse: num },
  { names: ['EVIDENT_TABLE_MAX_RESULT_BYTES'], path: ['tables', 'maxResultBytes'], parse: num },
  { names: ['EVIDENT_TABLE_MAX_VALUE_BYTES'], path: ['tables', 'maxValueBytes'], parse: num },
  { names: ['EVIDENT_TABLE_MAX_MEMORY_BYTES'], path: ['tables', 'maxMemoryBytes'], parse: num },
  { names: ['EVIDENT_TABLE_MAX_QUEUED_PER_USER'], path: ['tables', 'maxQueuedPerUser'], parse: num },
  ...limitEnvVars,
  ...agentEnvVars,
  { names: ['EVIDENT_OIDC_ISSUER'], path: ['oidc', 'issuer'], parse: text },
  { names: ['EVIDENT_OIDC_CLIENT_ID'], path: ['oidc', 'clientId'], parse: text },
  { names: ['EVIDENT_OIDC_CLIENT_SECRET'], path: ['oidc', 'clientSecret'], parse: text },
  { names: ['EVIDENT_OIDC_REDIRECT_URI'], path: ['oidc', 'redirectUri'], parse: text },
  { names: ['EVIDENT_OIDC_PUBLIC_URL'], path: ['oidc', 'publicUrl'], parse: text },
  { names: ['EVIDENT_OIDC_SCOPES'], path: ['oidc', 'scopes'], parse: list },
  { names: ['EVIDENT_OIDC_USER_CLAIM'], path: ['oidc', 'userClaim'], parse: text },
  { names: ['EVIDENT_OIDC_GROUPS_CLAIM'], path: ['oidc', 'groupsClaim'], parse: text },
  { names: ['EVIDENT_OIDC_GROUPS_FROM_TOKEN'], path: ['oidc', 'groupsFromToken'], parse: flag },
  { names: ['EVIDENT_OIDC_ADMIN_GROUP'], path: ['oidc', 'adminGroup'], parse: text },
  { names: ['EVIDENT_OIDC_AUDIENCE'], path: ['oidc', 'audience'], parse: text },
  { names: ['EVIDENT_OIDC_CLOCK_SKEW_SECONDS'], path: ['oidc', 'clockSkewSeconds'], parse: num },
  { names: ['EVIDENT_OIDC_DISPLAY_NAME'], path: ['oidc', 'displayName'], parse: text },
  { names: ['EVIDENT_SCIM_TOKEN'], path: ['scim', 'token'], parse: text },
  { names: ['EVIDENT_SCIM_MAX_PAGE_SIZE'], path: ['scim', 'maxPageSize'], parse: num },
  { names: ['EVIDENT_TRACE_QUESTIONS'], path: ['tracing', 'recordQuestions'], parse: flag },
  { names: ['EVIDENT_DEBUG'], path: ['debug'], parse: flag },
];

/** The variables that are set, as a nested config input (unset ones are absent, so lower layers show through). */
export function configFromEnv(env: Env): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const variable of ENV_VARS) {
    const raw = variable.names.map((name) => env[name]).find((value) => value !== undefined);
    const value = raw === undefined ? undefined : variable.parse(raw);
    if (value === undefined) continue;
    let target = input;
    for (const key of variable.path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[variable.path.at(-1) as string] = value;
  }
  return input;
}

/**
 * The variable that sets a config path, for error messages (`agents.rag.maxEvidence` → `EVIDENT_RAG_MAX_EVIDENCE`);
 * an item of a list names the list's variable (`databaseReadUrls.1` → `EVIDENT_DATABASE_READ_URLS`).
 */
export const envNameOf = (path: readonly PropertyKey[]): string | undefined =>
  ENV_VARS.find(
    (variable) =>
      variable.path.length <= path.length &&
      variable.path.every((key, i) => key === path[i]) &&
      path.slice(variable.path.length).every((key) => typeof key === 'number'),
  )?.names[0];
