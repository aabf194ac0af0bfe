import type { EvidentConfig } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';
import type { Store } from './store.ts';

/** The configured store: PostgreSQL when a database URL is set (`EVIDENT_DATABASE_URL`, `--database-url`), else the SQLite file. */
export async function openStore(config: Pick<EvidentConfig, 'db' | 'databaseUrl'>, options: { logger?: Logger } = {}): Promise<Store> {
  return config.databaseUrl ? openPostgresStore(config.databaseUrl, options) : openSqliteStore(config.db, options);
}
