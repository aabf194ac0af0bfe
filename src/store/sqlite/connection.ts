import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { StoreError, isEvidentError } from '../../errors/index.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';

export interface SqliteStoreOptions {
  logger?: Logger;
  readonly?: boolean;
}

/** How long a writer waits for another connection's write lock before failing. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * The connection's page cache, in KiB (an upper bound; pages are allocated as they are read). A search reads rows of
 * `chunks` by pk (each channel's ids, then the fetched candidates) and keyword blocks scattered over a file of
 * hundreds of MB; at SQLite's default of 2 MiB the B-trees' inner pages were evicted between searches and read again
 * (CPU per hybrid search at 100k chunks −7 to −10% with 64 MiB, six paired rounds in one process).
 */
export const PAGE_CACHE_KIB = 65_536;

/**
 * The store's one better-sqlite3 connection, shared by its port adapters: prepared statements (cached per SQL
 * text), the open/read-only checks, and the error guard that turns SQLite failures into a StoreError.
 */
export class SqliteConnection {
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    readonly db: Database.Database,
    readonly location: string,
    readonly logger: Logger,
    private readonly readonly: boolean,
  ) {}

  /** Opens (creating if needed) one SQLite file in WAL mode with sqlite-vec loaded, migrated to the current schema. */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteConnection {
    const memory = path === ':memory:';
    const location = memory ? path : resolve(path);
    const logger = options.logger ?? silentLogger;
    const readonly = options.readonly ?? false;
    let db: Database.Database;
    try {
      if (!memory && !readonly) mkdirSync(dirname(location), { recursive: true });
      db = new Database(location, { readonly, fileMustExist: readonly });
    } catch (error) {
      const reason = (error as Error).message;
      throw new StoreError(`Cannot open the store ${location}: ${reason}.`, {
        cause: error,
        hint: readonly
          ? 'Check that the file exists and is readable.'
          : 'Give --db (or EVIDENT_DB) a file path in a writable folder.',
      });
    }
    try {
      sqliteVec.load(db);
      if (!readonly && !memory) db.pragma('journal_mode = WAL');
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('foreign_keys = ON');
      if (!readonly) db.pragma('synchronous = NORMAL');
      db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
      const { from, to } = migrate(db, MIGRATIONS, { location, readonly });
      if (from !== to) logger.info('store migrated', { location, from, to });
    } catch (error) {
      db.close();
      if (isEvidentError(error)) throw error;
      throw new StoreError(`Cannot open the store ${location}: it is not a usable Evident database.`, {
        cause: error,
        hint: 'Point --db at an Evident store or at a new file.',
      });
    }
    return new SqliteConnection(db, location, logger, readonly);
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    this.db.close();
  }

  stmt(sql: string): Database.Statement {
    this.assertOpen();
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Drops cached statements that mention `fragment`: those prepared against a dropped table are invalid. */
  forgetStatements(fragment: string): void {
    for (const [sql] of this.statements) if (sql.includes(fragment)) this.statements.delete(sql);
  }

  /** `fn` in one IMMEDIATE transaction: the write lock is taken first, so a read-then-write cannot interleave. */
  immediate<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** The write counter every content write bumps; other processes compare it to see this one's writes. */
  generation(): number {
    const row = this.stmt("SELECT value FROM store_meta WHERE key = 'generation'").get() as
      | { value: string }
      | undefined;
    return row ? Number(row.value) : 0;
  }

  assertOpen(): void {
    if (!this.db.open) throw new StoreError(`The store ${this.location} is closed.`, { hint: 'Open it again.' });
  }

  assertWritable(): void {
    this.assertOpen();
    if (this.readonly) {
      throw new StoreError(`The store ${this.location} is open read-only.`, {
        hint: 'Open it without read-only to write.',
      });
    }
  }

  /** Evident errors pass through; SQLite failures become a StoreError that names the operation, not the data. */
  guard<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (isEvidentError(error)) throw error;
      throw new StoreError(`Could not ${what} in ${this.location}.`, { cause: error });
    }
  }
}
