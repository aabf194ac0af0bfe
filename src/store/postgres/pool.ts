import type { Pool, PoolClient } from 'pg';
import { StoreError, isEvidentError } from '../../errors/index.ts';
import { connectionError, type PostgresTarget } from './connection.ts';
import type { SchemaNames } from './migrations/index.ts';

/** Deadlocks and serialization failures are retried: the write is whole or absent, so running it again is safe. */
const RETRIED_SQLSTATES = new Set(['40P01', '40001']);
const WRITE_ATTEMPTS = 4;

/**
 * What the store's port adapters run their SQL through: one pooled client per call, or one transaction that is
 * retried whole on a deadlock; Postgres failures become a StoreError that names the operation. `PooledConnections`
 * is one server's pool; `ReadReplicas` hands out readers of this shape that run on a hot standby when one is fit.
 */
export interface PostgresPool {
  readonly target: PostgresTarget;
  readonly names: SchemaNames;
  readonly location: string;
  close(): Promise<void>;
  assertOpen(): void;
  withClient<T>(what: string, fn: (c: PoolClient) => Promise<T>): Promise<T>;
  transaction<T>(what: string, fn: (c: PoolClient) => Promise<T>): Promise<T>;
  connect(): Promise<PoolClient>;
}

/** One server's connection pool. */
export class PooledConnections implements PostgresPool {
  private closed = false;

  constructor(
    private readonly pool: Pool,
    readonly target: PostgresTarget,
    readonly names: SchemaNames,
  ) {}

  get location(): string {
    return this.target.location;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  assertOpen(): void {
    if (this.closed) throw new StoreError(`The store ${this.location} is closed.`, { hint: 'Open it again.' });
  }

  /** One pooled connection for `fn`, outside any explicit transaction. */
  async withClient<T>(what: string, fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await this.connect();
    try {
      return await fn(c);
    } catch (error) {
      throw this.failure(what, error);
    } finally {
      c.release();
    }
  }

  /** `fn` in one transaction, retried whole when Postgres aborts it for a deadlock or serialization conflict. */
  async transaction<T>(what: string, fn: (c: PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const c = await this.connect();
      let broken = false;
      try {
        await c.query('BEGIN');
        const result = await fn(c);
        await c.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await c.query('ROLLBACK');
        } catch {
          broken = true;
        }
        const code = (error as { code?: string }).code;
        if (code !== undefined && RETRIED_SQLSTATES.has(code) && attempt < WRITE_ATTEMPTS) continue;
        throw this.failure(what, error);
      } finally {
        c.release(broken);
      }
    }
  }

  /** A pooled client the caller releases: for work that manages its own transaction (table queries). */
  async connect(): Promise<PoolClient> {
    this.assertOpen();
    try {
      return await this.pool.connect();
    } catch (error) {
      throw connectionError(this.target, error);
    }
  }

  /** Evident errors pass through; Postgres failures become a StoreError that names the operation. */
  private failure(what: string, error: unknown): Error {
    if (isEvidentError(error)) return error;
    return new StoreError(`Could not ${what} in ${this.location}: ${(error as Error)?.message ?? String(error)}.`, {
      cause: error,
    });
  }
}
