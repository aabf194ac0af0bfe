import pg, { type PoolClient } from 'pg';
import { StoreError } from '../../errors/index.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import type { Store, StoreStats } from '../store.ts';
import {
  connectionError,
  createPool,
  parsePostgresUrl,
  parseReadReplicaUrls,
  type PostgresTarget,
} from './connection.ts';
import { readEmbedder } from './document-writes.ts';
import { migratePostgres } from './migrate.ts';
import { POSTGRES_MIGRATIONS, schemaNames } from './migrations/index.ts';
import { PooledConnections } from './pool.ts';
import { ReadReplicas, type ReadReplicaOptions, type ReadReplicaStatus } from './read-replicas.ts';
import { primaryAdapters, routedAdapters } from './routed-adapters.ts';

export interface PostgresStoreOptions {
  logger?: Logger;
  /** The schema of the store's tables; overrides `?schema=` in the URL (default `evident`). */
  schema?: string;
  /** Connections this process keeps at most (to the primary, and to each read replica). */
  poolSize?: number;
  /** Hot standbys of the primary (`EVIDENT_DATABASE_READ_URLS`) that take retrieval, listing and history reads. */
  readUrls?: readonly string[];
  /** Lag bound, health-check interval and timeouts of the read replicas. */
  readReplicas?: Omit<ReadReplicaOptions, 'logger' | 'poolSize'>;
}

/** The Postgres store, with a view of its read replicas for diagnostics and tests. */
export interface PostgresStore extends Store {
  /** Each read replica's state as last checked (empty without `readUrls`). */
  readReplicaStatus(): ReadReplicaStatus[];
  /** Checks the read replicas now instead of at the next tick. */
  checkReadReplicas(): Promise<void>;
}

/**
 * Opens (creating and migrating if needed) the store in a PostgreSQL database with pgvector:
 * `postgres://user:password@host:5432/database[?schema=name]`. The scale-out backend: many processes share one
 * database. Its port adapters share one pool.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const target = parsePostgresUrl(url, options.schema);
  const readTargets = parseReadReplicaUrls(options.readUrls ?? [], target);
  const logger = options.logger ?? silentLogger;
  const names = schemaNames(target.schema);
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
    const { from, to } = await migratePostgres(
      bootstrap as unknown as PoolClient,
      POSTGRES_MIGRATIONS,
      names,
      target.location,
    );
    if (from !== to) logger.info('store migrated', { location: target.location, from, to });
  } finally {
    await bootstrap.end();
  }
  const connections = createPool(target, [names.schema, vectorSchema], options.poolSize);
  // An idle connection that dies (server restart) must not crash the process; the next query reconnects.
  connections.on('error', (error) =>
    logger.warn('postgres connection lost', { location: target.location, error: error.message }),
  );
  const pool = new PooledConnections(connections, target, names);
  let replicas: ReadReplicas | undefined;
  if (readTargets.length > 0) {
    try {
      replicas = await ReadReplicas.open(pool, readTargets, [names.schema, vectorSchema], {
        ...options.readReplicas,
        logger,
        ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
      });
    } catch (error) {
      await pool.close();
      throw error;
    }
  }

  return {
    backend: 'postgres',
    location: target.location,
    ...(replicas ? routedAdapters(pool, replicas) : primaryAdapters(pool)),
    // Checkpoints are written and read on the primary: the saver opens its own pool with the primary's connection string.
    // LangGraph's saver loads with the first checkpointer, as on SQLite.
    openCheckpointer: async () =>
      (await import('./checkpointer.ts')).openPostgresCheckpointer(target.connectionString, names.schema),
    readReplicaStatus: () => replicas?.status() ?? [],
    checkReadReplicas: async () => replicas?.check(),
    async close() {
      await replicas?.close();
      await pool.close();
    },

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
  const find = async () =>
    (
      await client.query<{ schema: string }>(
        "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'vector'",
      )
    ).rows[0]?.schema;
  const found = await find();
  if (found) return found.replaceAll('"', '');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (error) {
    throw new StoreError(
      `The database at ${target.location} has no pgvector extension and it could not be installed: ${(error as Error).message}.`,
      {
        cause: error,
        hint: 'Install pgvector on the server and run CREATE EXTENSION vector once as a superuser (managed services list it as an extension to enable).',
      },
    );
  }
  return ((await find()) ?? 'public').replaceAll('"', '');
}
