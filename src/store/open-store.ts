import type { EvidentConfig } from '../config/index.ts';
import { ConfigError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { Store } from './store.ts';

/**
 * The configured store: PostgreSQL when a database URL is set (`EVIDENT_DATABASE_URL`, `--database-url`), with its
 * hot standbys taking reads (`EVIDENT_DATABASE_READ_URLS`), else the SQLite file.
 */
export async function openStore(
  config: Pick<EvidentConfig, 'db' | 'databaseUrl' | 'databaseReadUrls'> & Partial<Pick<EvidentConfig, 'database'>>,
  options: { logger?: Logger } = {},
): Promise<Store> {
  const readUrls = config.databaseReadUrls ?? [];
  if (!config.databaseUrl) {
    if (readUrls.length > 0) {
      throw new ConfigError('EVIDENT_DATABASE_READ_URLS names read replicas, but no primary database is set.', {
        hint: 'Set EVIDENT_DATABASE_URL (or --database-url) to the primary the standbys replicate, or unset EVIDENT_DATABASE_READ_URLS.',
      });
    }
    // Each backend (and its driver) loads only when it is the one configured.
    const { openSqliteStore } = await import('./sqlite/store.ts');
    return openSqliteStore(config.db, options);
  }
  const replicas = config.database;
  const { openPostgresStore } = await import('./postgres/store.ts');
  return openPostgresStore(config.databaseUrl, {
    ...options,
    readUrls,
    ...(replicas
      ? { readReplicas: { maxLagMs: replicas.replicaMaxLagMs, checkIntervalMs: replicas.replicaCheckIntervalMs } }
      : {}),
  });
}
