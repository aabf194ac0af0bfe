import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { QueryRejectedError, StoreError } from '../../errors/index.ts';

/** Where the child reads the database: the store's file, or an image of an in-memory store. */
export type QuerySource = { path: string } | { image: Uint8Array };

export interface TableQueryRequest {
  sql: string;
  /** Lowercase SQL names of the tables the statement may read. */
  allowed: readonly string[];
  maxRows: number;
  timeoutMs: number;
}

export type TableQueryReply =
  | { ok: true; columns: string[]; rows: unknown[][]; truncated: boolean }
  | { ok: false; reason: 'not_allowed' }
  | { ok: false; reason: 'not_select' }
  | { ok: false; reason: 'sql_error'; message: string };

type ChildMessage = { type: 'ready' } | ({ id: number } & TableQueryReply);

const CHILD_SCRIPT = fileURLToPath(new URL('./table-query-child.cjs', import.meta.url));
const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

interface Live {
  process: ChildProcess;
  ready: Promise<void>;
}

/**
 * Runs table queries one at a time in a child process with its own read-only connection, started on first use
 * and kept for the next query. A query past its time limit gets the child killed (SIGKILL: the only way to stop
 * SQLite inside a synchronous step) and the next query starts a fresh one.
 */
export class TableQueryRunner {
  private live: Live | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private nextId = 0;

  constructor(private readonly source: () => QuerySource) {}

  run(request: TableQueryRequest): Promise<TableQueryReply> {
    const result = this.tail.then(() => this.runNow(request));
    this.tail = result.catch(() => undefined);
    return result;
  }

  close(): void {
    this.live?.process.kill('SIGKILL');
    this.live = undefined;
  }

  private start(): Live {
    const child = fork(CHILD_SCRIPT, [BETTER_SQLITE3], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if ('type' in message && message.type === 'ready') {
          child.off('exit', onExit);
          child.off('message', onMessage);
          resolve();
        }
      };
      const onExit = () => reject(new StoreError('The table query process could not start.'));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', onExit);
    });
    const live = { process: child, ready };
    child.once('exit', () => {
      if (this.live === live) this.live = undefined;
    });
    return live;
  }

  private async runNow(request: TableQueryRequest): Promise<TableQueryReply> {
    const live = this.live ?? (this.live = this.start());
    const child = live.process;
    // Idle children must not keep the process alive; a running query does.
    child.ref();
    child.channel?.ref();
    try {
      await live.ready;
      const id = ++this.nextId;
      return await new Promise<TableQueryReply>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          child.off('message', onMessage);
          child.off('exit', onExit);
        };
        const onMessage = (message: ChildMessage) => {
          if ('id' in message && message.id === id) {
            done();
            const { id: _, ...reply } = message;
            resolve(reply);
          }
        };
        const onExit = () => {
          done();
          reject(new StoreError('The table query process ended unexpectedly.', { hint: 'Run the query again.' }));
        };
        const timer = setTimeout(() => {
          done();
          if (this.live === live) this.live = undefined;
          child.kill('SIGKILL');
          reject(
            new QueryRejectedError('query_timeout', `The query ran longer than ${request.timeoutMs} ms and was stopped.`, {
              hint: 'Aggregate over fewer rows, avoid cross joins and unbounded recursive CTEs, or raise the time limit.',
            }),
          );
        }, request.timeoutMs);
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send({ id, sql: request.sql, allowed: request.allowed, maxRows: request.maxRows, ...this.source() });
      });
    } finally {
      child.unref();
      child.channel?.unref();
    }
  }
}
