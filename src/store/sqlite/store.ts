import type { Store, StoreStats } from '../store.ts';
import { readEmbedder } from './document-writes.ts';
import { sqliteAssistantStore } from './assistant-store.ts';
import { sqliteAuditLog } from './audit-log.ts';
import { sqliteCronStore } from './cron-store.ts';
import { SqliteConnection, type SqliteStoreOptions } from './connection.ts';
import { sqliteDirectoryStore } from './directory-store.ts';
import { sqliteDocumentStore } from './document-store.ts';
import { sqliteFeedbackStore } from './feedback-store.ts';
import { sqliteMemoryStore } from './memory-store.ts';
import { sqlitePrincipalStore } from './principal-store.ts';
import { sqliteRunLog } from './run-log.ts';
import { sqliteRunWebhookLog } from './run-webhook-log.ts';
import { sqliteSessionStore } from './session-store.ts';
import { TableQueryRunner } from './table-query/runner.ts';
import { resolveTableQueryLimits } from '../table-query-limits.ts';
import { TermStats } from './term-stats.ts';
import { VectorCache } from './vectors/vector-cache.ts';

export type { SqliteStoreOptions } from './connection.ts';

/** The bounds a prewarmed query process is started for: the byte bounds' defaults (rows and time do not shape it). */
const DEFAULT_BOUNDS = { maxRows: 1, timeoutMs: 1 };

/** The embedded store, with what SQLite-specific tests observe of its vector cache. */
export interface SqliteStore extends Store {
  /** How often the vector index was (re)built from the file: observable by tests of cross-process freshness. */
  readonly indexLoads: number;
  /** The write counter every content write bumps; other processes compare it to see this one's writes. */
  generation(): number;
}

/**
 * Opens (creating if needed) the embedded store: one SQLite file in WAL mode with sqlite-vec loaded and the
 * schema migrated to the current version. Its port adapters share the one connection.
 */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
  const conn = SqliteConnection.open(path, options);
  const vectors = new VectorCache(conn);
  const tableQueries = new TableQueryRunner(() =>
    conn.location === ':memory:' ? { image: conn.db.serialize() } : { path: conn.location },
  );
  return {
    backend: 'sqlite',
    location: conn.location,
    ...sqliteDocumentStore(conn, { vectors, termStats: new TermStats(conn), tableQueries }),
    ...sqlitePrincipalStore(conn),
    ...sqliteDirectoryStore(conn),
    ...sqliteMemoryStore(conn),
    ...sqliteRunLog(conn),
    ...sqliteRunWebhookLog(conn),
    ...sqliteAuditLog(conn),
    ...sqliteFeedbackStore(conn),
    ...sqliteAssistantStore(conn),
    ...sqliteCronStore(conn),
    ...sqliteSessionStore(conn),
    prepareTableQueries() {
      if (conn.isOpen && conn.location !== ':memory:') tableQueries.prewarm(resolveTableQueryLimits(DEFAULT_BOUNDS));
    },
    // LangGraph (its saver, and LangChain under it) loads with the first checkpointer: search and ingest never load it.
    openCheckpointer: async () => (await import('./checkpointer.ts')).openSqliteCheckpointer(conn.location),

    async close() {
      if (!conn.isOpen) return;
      const childGone = tableQueries.close();
      // A snapshot still waiting for this process's writes to go quiet is written now, so the next process loads it.
      vectors.flush();
      conn.close();
      vectors.clear();
      await childGone;
    },

    async stats(): Promise<StoreStats> {
      const counts = conn
        .stmt(
          `SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks,
                  (SELECT count(*) FROM doc_tables) AS tables, (SELECT count(*) FROM users) AS users`,
        )
        .get() as { documents: number; chunks: number; tables: number; users: number };
      return { ...counts, embedder: readEmbedder(conn) };
    },

    get indexLoads() {
      return vectors.loads;
    },
    generation: () => conn.generation(),
  };
}
