import type { RunnableConfig } from '@langchain/core/runnables';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import type { Checkpointer } from '../ports/checkpoint-store.ts';

type Saver = PostgresSaver;

/**
 * LangGraph's PostgresSaver, in the store's own schema, creating its tables on first use (opening a checkpointer
 * costs no round trip to the database; a failed setup is tried again by the next use). Setup runs under an advisory lock because
 * several server processes may start on a new database at once, and the saver's migrations are not safe to race.
 */
export class LazyPostgresSaver extends PostgresSaver {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly ownPool: pg.Pool,
    private readonly schema: string,
  ) {
    super(ownPool, undefined, { schema });
  }

  static connect(connectionString: string, schema: string): LazyPostgresSaver {
    return new LazyPostgresSaver(
      new pg.Pool({ connectionString, max: 4, application_name: 'evident-checkpoints' }),
      schema,
    );
  }

  override async setup(): Promise<void> {
    this.ready ??= this.setUpOnce().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  override async getTuple(config: RunnableConfig): ReturnType<Saver['getTuple']> {
    await this.setup();
    return super.getTuple(config);
  }

  override async *list(...args: Parameters<Saver['list']>): ReturnType<Saver['list']> {
    await this.setup();
    yield* super.list(...args);
  }

  override async put(...args: Parameters<Saver['put']>): ReturnType<Saver['put']> {
    await this.setup();
    return super.put(...args);
  }

  override async putWrites(...args: Parameters<Saver['putWrites']>): ReturnType<Saver['putWrites']> {
    await this.setup();
    return super.putWrites(...args);
  }

  override async deleteThread(threadId: string): Promise<void> {
    await this.setup();
    return super.deleteThread(threadId);
  }

  /**
   * A rollback: the thread's checkpoints after `after` (all when null) and their writes, in one transaction. Their
   * blobs stay: a blob is keyed by channel and version and may be shared with the checkpoints that remain.
   */
  async deleteCheckpointsAfter(threadId: string, after: string | null): Promise<number> {
    await this.setup();
    const table = (name: string) => `"${this.schema.replaceAll('"', '""')}".${name}`;
    const client = await this.ownPool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`DELETE FROM ${table('checkpoint_writes')} WHERE thread_id = $1 AND checkpoint_id > $2`, [
        threadId,
        after ?? '',
      ]);
      const deleted = await client.query(
        `DELETE FROM ${table('checkpoints')} WHERE thread_id = $1 AND checkpoint_id > $2`,
        [threadId, after ?? ''],
      );
      await client.query('COMMIT');
      return deleted.rowCount ?? 0;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async setUpOnce(): Promise<void> {
    const client = await this.ownPool.connect();
    const lock = `evident-checkpoints:${this.schema}`;
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
      await super.setup();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]).catch(() => undefined);
      client.release();
    }
  }
}

/**
 * LangGraph checkpoints in the store's own schema, through a pool of their own, so every server process on the
 * database resumes any thread.
 */
export function openPostgresCheckpointer(connectionString: string, schema: string): Checkpointer {
  const saver = LazyPostgresSaver.connect(connectionString, schema);
  return { saver, close: () => saver.end().catch(() => undefined) };
}
