import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { QueryRejectedError, QueryTooLargeError, StoreError, type QueryBound } from '../../../errors/index.ts';
import type { ResolvedTableQueryLimits } from '../../table-query-limits.ts';
import { tableQueryQueue } from '../../table-query-limits.ts';
import { FrameReader, frame } from './frames.ts';

/** Where the child reads the database: the store's file, or an image of an in-memory store. */
export type QuerySource = { path: string } | { image: Uint8Array };

export interface TableQueryRequest {
  /** Whose query it is: queries are served one principal after another (FairQueue), not first come first served. */
  principal: string;
  sql: string;
  /** Lowercase SQL names of the tables the statement may read. */
  allowed: readonly string[];
  limits: ResolvedTableQueryLimits;
}

export type TableQueryReply =
  | { ok: true; columns: string[]; rows: unknown[][]; truncated: boolean }
  | { ok: false; reason: 'not_allowed' }
  | { ok: false; reason: 'not_select' }
  | { ok: false; reason: 'sql_error'; message: string };

type ChildReply =
  | TableQueryReply
  | { ok: false; reason: 'too_large'; bound: QueryBound }
  | { ok: false; reason: 'timeout' };
type ChildMessage = { type: 'ready' } | ({ id: number } & ChildReply);

const CHILD_SCRIPT = fileURLToPath(new URL('./child.cjs', import.meta.url));
const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');
/** What Node, better-sqlite3 and SQLite's page cache take before a query allocates anything (measured: ~50 MB). */
const BASELINE_BYTES = 128 * 1024 * 1024;
/**
 * Linux counts every private writable mapping against RLIMIT_DATA (since 4.7), so `ulimit -d` bounds the process's
 * heap, SQLite's allocations and V8's alike. Elsewhere the child runs without a memory bound.
 */
const MEMORY_LIMITED = process.platform === 'linux';

type Child = ChildProcessByStdio<Writable, Readable, null>;

interface Live {
  process: Child;
  reader: FrameReader<ChildMessage>;
  ready: Promise<void>;
  /** The data limit it was started with (bytes), 0 for none. */
  dataLimit: number;
}

const queryTimeout = (timeoutMs: number) =>
  new QueryRejectedError(
    'query_timeout',
    `The query took longer than ${timeoutMs} ms, its wait for its turn included (tables.timeoutMs, EVIDENT_TABLE_TIMEOUT_MS), and was stopped.`,
    {
      hint: 'Aggregate over fewer rows, avoid cross joins and unbounded recursive CTEs, or raise the time limit.',
    },
  );

/**
 * Runs table queries one at a time in a child process with its own read-only connection, started on first use
 * and kept for the next query, one principal's after another's (FairQueue), each principal with a few waiting at most. The child works within a data-segment limit (Linux), counts what it returns and
 * stops at the result's byte bounds; the parent stops reading a reply at its byte cap and counts the rows again.
 * A query past its time limit — measured from sending it until its reply is read — gets the child killed
 * (SIGKILL: the only way to stop SQLite inside a synchronous step) and the next query starts a fresh one.
 */
export class TableQueryRunner {
  private live: Live | undefined;
  private nextId = 0;
  /** One child, one query at a time. */
  private readonly queue = tableQueryQueue(1);

  constructor(private readonly source: () => QuerySource) {}

  /**
   * Runs a query in its principal's turn. Its time limit counts the wait: a query that waited past it is refused
   * without running, and one that runs gets what is left.
   */
  run(request: TableQueryRequest): Promise<TableQueryReply> {
    const { limits } = request;
    return this.queue.run(request.principal, limits.maxQueuedPerUser, (waitedMs) => {
      const left = limits.timeoutMs - waitedMs;
      if (left <= 0) return Promise.reject(queryTimeout(limits.timeoutMs));
      return this.runNow({ ...request, limits: { ...limits, timeoutMs: left } }, limits.timeoutMs);
    });
  }

  /**
   * Starts the child for queries within `limits` unless one is live, so the first query does not wait for it (a Node
   * process and better-sqlite3: about 80 ms, spent on another core while this process goes on). It waits idle, keeping
   * nothing alive, for a query or `close()`. For a store file only: an in-memory store's image is taken per query.
   */
  prewarm(limits: ResolvedTableQueryLimits): void {
    if (this.live) return;
    const live = this.childFor(limits, 0);
    setRef(live.process, false);
    // A child that cannot start fails the first query that waits for it; here nothing waits.
    live.ready.catch(() => undefined);
  }

  /**
   * Kills the idle child and waits for it to be gone (at most a second), so a process that exits after closing its
   * store leaves no child behind: one killed but not yet reaped would outlive it as an orphaned zombie.
   */
  async close(): Promise<void> {
    const live = this.live;
    if (!live) return;
    const child = live.process;
    const gone =
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 1000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
          });
    this.stop(live);
    await gone;
  }

  private stop(live: Live | undefined): void {
    if (!live) return;
    if (this.live === live) this.live = undefined;
    live.process.kill('SIGKILL');
  }

  private start(dataLimit: number): Live {
    const args = [CHILD_SCRIPT, BETTER_SQLITE3];
    const child: Child = dataLimit
      ? spawn(
          '/bin/sh',
          [
            '-c',
            'ulimit -d "$1" && shift && exec "$@"',
            'sh',
            String(Math.ceil(dataLimit / 1024)),
            process.execPath,
            ...args,
          ],
          {
            stdio: ['pipe', 'pipe', 'ignore'],
          },
        )
      : spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const reader = new FrameReader<ChildMessage>();
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    // A write to a child that died is reported by its exit; the pipe's own error adds nothing.
    child.stdin.on('error', () => undefined);
    const ready = new Promise<void>((resolve, reject) => {
      reader.onMessage = (message) => {
        if ('type' in message && message.type === 'ready') resolve();
      };
      const failed = () =>
        reject(
          new StoreError('The table query process could not start.', {
            hint: 'Check that Node can start child processes here.',
          }),
        );
      child.once('exit', failed);
      child.once('error', failed);
    });
    const live: Live = { process: child, reader, ready, dataLimit };
    child.once('exit', () => {
      if (this.live === live) this.live = undefined;
    });
    return live;
  }

  /** The child for this query: the live one, unless its data limit does not fit this query's bounds. */
  private childFor(limits: ResolvedTableQueryLimits, imageBytes: number): Live {
    // An in-memory store's image is held twice in the child (the message and SQLite's copy), plus the read buffer.
    const dataLimit = MEMORY_LIMITED ? BASELINE_BYTES + limits.maxMemoryBytes + 3 * imageBytes : 0;
    if (this.live && (this.live.dataLimit < dataLimit || this.live.dataLimit > 2 * dataLimit)) this.stop(this.live);
    return this.live ?? (this.live = this.start(dataLimit));
  }

  /** Runs a query now, within `limits.timeoutMs` (what is left of `stated`, the limit its errors name). */
  private async runNow(request: TableQueryRequest, stated: number): Promise<TableQueryReply> {
    const { limits } = request;
    const timeoutError = () => queryTimeout(stated);
    const source = this.source();
    const live = this.childFor(limits, 'image' in source ? source.image.byteLength : 0);
    const child = live.process;
    // Idle children must not keep the process alive; a running query does.
    setRef(child, true);
    try {
      await live.ready;
      const id = ++this.nextId;
      // v8.serialize takes at most two bytes per UTF-8 byte of text (one per raw byte), plus a few per row.
      live.reader.maxFrameBytes = 2 * limits.maxResultBytes + 16 * (limits.maxRows + 1) + 64 * 1024;
      const reply = await new Promise<ChildReply>((resolve, reject) => {
        const started = performance.now();
        const fail = (error: Error) => {
          done();
          this.stop(live);
          reject(error);
        };
        const done = () => {
          clearTimeout(timer);
          live.reader.onMessage = undefined;
          live.reader.onOverflow = undefined;
          child.off('exit', onExit);
        };
        live.reader.onMessage = (message) => {
          if (!('id' in message) || message.id !== id) return;
          // The loop may have been busy elsewhere while the reply arrived: the limit covers the whole exchange.
          if (performance.now() - started > limits.timeoutMs) return fail(timeoutError());
          done();
          const { id: _, ...rest } = message;
          resolve(rest);
        };
        live.reader.onOverflow = () => fail(new QueryTooLargeError('result', limits.maxResultBytes));
        const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
          // A child that dies inside a query with a data limit ran out of it (V8 aborts when an allocation fails).
          if (live.dataLimit && (signal !== null || code !== 0))
            return fail(new QueryTooLargeError('memory', limits.maxMemoryBytes));
          fail(new StoreError('The table query process ended unexpectedly.', { hint: 'Run the query again.' }));
        };
        const timer = setTimeout(() => fail(timeoutError()), limits.timeoutMs);
        child.once('exit', onExit);
        child.stdin.write(
          frame({
            id,
            sql: request.sql,
            allowed: request.allowed,
            maxRows: limits.maxRows,
            maxResultBytes: limits.maxResultBytes,
            maxValueBytes: limits.maxValueBytes,
            timeoutMs: limits.timeoutMs,
            ...source,
          }),
        );
      });
      if (reply.ok || reply.reason === 'not_allowed' || reply.reason === 'not_select' || reply.reason === 'sql_error')
        return reply;
      if (reply.reason === 'timeout') throw timeoutError();
      const limit = { result: limits.maxResultBytes, value: limits.maxValueBytes, memory: limits.maxMemoryBytes }[
        reply.bound
      ];
      throw new QueryTooLargeError(reply.bound, limit);
    } finally {
      setRef(child, false);
    }
  }
}

function setRef(child: Child, ref: boolean): void {
  for (const handle of [child, child.stdin, child.stdout] as { ref(): void; unref(): void }[]) {
    if (ref) handle.ref();
    else handle.unref();
  }
}
