export {
  configSchema,
  resolveRetrievalSettings,
  type ConfigInput,
  type EvidentConfig,
  type RetrievalSettings,
} from './schema.ts';
export { loadConfig, CONFIG_FILE, type LoadConfigOptions } from './load-config.ts';
export { agentsSchema, type AgentsConfig } from './agents-schema.ts';
export { cronsSchema, type CronsConfig } from './crons-schema.ts';
export { tablesSchema, TABLE_QUERY_DEFAULTS, type TablesConfig } from './tables-schema.ts';
export { ingestSchema, INGEST_DEFAULTS, type IngestConfig } from './ingest-schema.ts';
export { limitsSchema, limitSetting, LIMITS_DEFAULTS, type LimitName, type LimitsConfig } from './limits-schema.ts';
export { webhooksSchema, type WebhooksConfig } from './webhooks-schema.ts';
export { scimSchema, type ScimConfig } from './scim-schema.ts';
