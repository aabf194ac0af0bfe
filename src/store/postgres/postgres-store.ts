import pg, { type PoolClient } from 'pg';
import { StoreError } from '../../errors/index.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import type { Store, StoreStats } from '../store.ts';
import { connectionError, createPool, parsePostgresUrl, type PostgresTarget } from './connection.ts';
import { readEmbedder } from './document-writes.ts';
import { migratePostgres } from './migrate.ts';
import { POSTGRES_MIGRATIONS, type SchemaNames } from './migrations/index.ts';
import { postgresDocumentStore } from './postgres-document-store.ts';
import { postgresMemoryStore } from './postgres-memory-store.ts';
import { PostgresPool } from './postgres-pool.ts';
import { postgresPrincipalStore } from './postgres-principal-store.ts';
import { postgresRunLog } from './postgres-run-log.ts';
import { openPostgresCheckpointer } from './postgres-saver.ts';

export interface PostgresStoreOptions {
  logger?: Logger;
  /** The schema of the store's tables; overrides `?schema=` in the URL (default `evident`). */
  schema?: string;
  /** Connections this process keeps at most. */
  poolSize?: number;
}

/**
 * Opens (creating and migrating if needed) the store in a PostgreSQL database with pgvector:
 * `postgres://user:password@host:5432/database[?schema=name]`. The scale-out backend: many processes share one
 * database. Its port adapters share one pool.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const target = parsePostgresUrl(url, options.schema);
  const logger = options.logger ?? silentLogger;
  const names: SchemaNames = { schema: target.schema, tables: `${target.schema}_tables`, reader: `${target.schema}_reader` };
  const bootstrap = new pg.Client({ connectionString: target.connectionString, connectionTimeoutMillis: 10_000 });
  try {
    await bootstrap.connect();
  } catch (error) {
    throw connectionError(target, error);
  }
  let vectorSchema: string;
  try {
    vectorSchema = await ensurePgvector(bootstrap, target);
    await bootstrap.query(`SET search_path = "${names.schema}", "${vectorSchema}"`);
    const { from, to } = await migratePostgres(bootstrap as unknown as PoolClient, POSTGRES_MIGRATIONS, names, target.location);
    if (from !== to) logger.info('store migrated', { location: target.location, from, to });
  } finally {
    await bootstrap.end();
  }
  const connections = createPool(target, [names.schema, vectorSchema], options.poolSize);
  // An idle connection that dies (server restart) must not crash the process; the next query reconnects.
  connections.on('error', (error) => logger.warn('postgres connection lost', { location: target.location, error: error.message }));
  const pool = new PostgresPool(connections, target, names);

  return {
    backend: 'postgres',
    location: target.location,
    ...postgresDocumentStore(pool),
    ...postgresPrincipalStore(pool),
    ...postgresMemoryStore(pool),
    ...postgresRunLog(pool),
    // The saver opens its own pool with the connection string (with its password) the store was opened with.
    openCheckpointer: () => openPostgresCheckpointer(target.connectionString, names.schema),
    close: () => pool.close(),

    async stats(): Promise<StoreStats> {
      return pool.withClient('read statistics', async (c) => {
        const counts = (
          await c.query<{ documents: number; chunks: number; tables: number; users: number }>(
            `SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks,
                    (SELECT count(*) FROM doc_tables) AS tables, (SELECT count(*) FROM users) AS users`,
          )
        ).rows[0] as { documents: number; chunks: number; tables: number; users: number };
        return { ...counts, embedder: await readEmbedder(c) };
      });
    },
  };
}

/** Installs pgvector if it is missing (needs the privilege to) and returns the schema its types live in. */
async function ensurePgvector(client: pg.Client, target: PostgresTarget): Promise<string> {
  const find = async () => (await client.query<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'vector'")).rows[0]?.schema;
  const found = await find();
  if (found) return found.replaceAll('"', '');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (error) {
    throw new StoreError(`The database at ${target.location} has no pgvector extension and it could not be installed: ${(error as Error).message}.`, {
      cause: error,
      hint: 'Install pgvector on the server and run CREATE EXTENSION vector once as a superuser (managed services list it as an extension to enable).',
    });
  }
  return ((await find()) ?? 'public').replaceAll('"', '');
}
