export { configSchema, type ConfigInput, type EvidentConfig } from './schema.ts';
export { loadConfig, CONFIG_FILE, type LoadConfigOptions } from './load-config.ts';
