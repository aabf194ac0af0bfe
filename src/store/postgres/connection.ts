import pg from 'pg';
import { ConfigError, StoreError } from '../../errors/index.ts';

/** Where a Postgres store lives: the server, and the schema its tables are in (`?schema=` in the URL). */
export interface PostgresTarget {
  /** The connection string as given to `pg`, without Evident's own `schema` parameter. */
  connectionString: string;
  schema: string;
  /** The URL without its password, for messages and `Store.location`. */
  location: string;
}

export const DEFAULT_SCHEMA = 'evident';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,40}$/;

export const isPostgresUrl = (value: string): boolean => /^postgres(ql)?:\/\//i.test(value);

/** Parses `postgres://user:password@host:port/db?schema=name`; the schema defaults to `evident`. */
export function parsePostgresUrl(url: string, schemaOverride?: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreError('The database URL is not a valid URL.', {
      hint: 'Use postgres://user:password@host:5432/database.',
    });
  }
  if (!isPostgresUrl(url)) {
    throw new StoreError(`The database URL must start with postgres:// (got ${parsed.protocol}//…).`, {
      hint: 'Set EVIDENT_DATABASE_URL or --database-url to postgres://user:password@host:5432/database.',
    });
  }
  const schema = schemaOverride ?? parsed.searchParams.get('schema') ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw new StoreError(`Invalid schema name ${JSON.stringify(schema)} in the database URL.`, {
      hint: 'Use lowercase letters, digits and underscores (at most 41 characters), starting with a letter.',
    });
  }
  parsed.searchParams.delete('schema');
  const connectionString = parsed.toString();
  const shown = new URL(connectionString);
  if (shown.password) shown.password = '';
  if (schema !== DEFAULT_SCHEMA) shown.searchParams.set('schema', schema);
  return { connectionString, schema, location: shown.toString() };
}

/** Postgres integer and numeric results as JS numbers (as SQLite returns them); an unsafe int8 stays a string. */
const INT8 = 20;
const NUMERIC = 1700;
const parseInt8 = (value: string): number | string => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
};

export const numericTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === INT8) return parseInt8;
    if (oid === NUMERIC) return Number;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** A pool whose connections resolve the store's tables first, then the schema pgvector is installed in. */
export function createPool(
  target: PostgresTarget,
  searchPath: readonly string[],
  max = 8,
  connectTimeoutMs = 10_000,
): pg.Pool {
  const path = searchPath.map((name) => `"${name}"`).join(',');
  return new pg.Pool({
    connectionString: target.connectionString,
    max,
    types: numericTypes,
    options: `-c search_path=${path}`,
    application_name: 'evident',
    connectionTimeoutMillis: connectTimeoutMs,
  });
}

/**
 * The hot standbys of `EVIDENT_DATABASE_READ_URLS`: each a postgres:// URL, serving the primary's schema (a
 * `?schema=` of their own is overridden, since a physical standby is a copy of the whole primary).
 */
export function parseReadReplicaUrls(urls: readonly string[], primary: PostgresTarget): PostgresTarget[] {
  return urls.map((url, i) => {
    try {
      return parsePostgresUrl(url, primary.schema);
    } catch (error) {
      throw new ConfigError(
        `Read replica ${i + 1} of EVIDENT_DATABASE_READ_URLS is not a PostgreSQL URL: ${(error as Error).message}`,
        {
          cause: error,
          hint: 'Give each hot standby as postgres://user:password@host:5432/database, separated by commas (the same database as EVIDENT_DATABASE_URL).',
        },
      );
    }
  });
}

/** A connection failure, naming the server without its password and what to check. */
export function connectionError(target: PostgresTarget, error: unknown): StoreError {
  const reason = (error as Error)?.message || String(error);
  return new StoreError(`Cannot connect to PostgreSQL at ${target.location}: ${reason}.`, {
    cause: error,
    category: 'system',
    hint: 'Check that the server is running and reachable, and the user, password and database in EVIDENT_DATABASE_URL (or --database-url).',
  });
}
