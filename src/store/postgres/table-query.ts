import { Socket } from 'node:net';
import type { PoolClient } from 'pg';
import { QueryRejectedError, QueryTooLargeError, StoreError } from '../../errors/index.ts';
import type { TableQueryResult } from '../ports/document-store.ts';
import { tableNotAllowedError, type GuardedQuery } from '../sql-guard.ts';
import { checkResultBytes, type ResolvedTableQueryLimits } from '../table-query-limits.ts';
import type { SchemaNames } from './migrations/index.ts';
import { forbiddenCall } from './plan-calls.ts';
import { assumeQueryRole } from './table-roles.ts';

/**
 * Read-only table queries on Postgres. Besides the shared guard, three walls: the statement runs in a read-only
 * transaction as a role that may read the principal's tables and nothing else (table-roles.ts: the server enforces
 * the ACL, whatever the statement runs), with `statement_timeout`; and its plan (EXPLAIN VERBOSE) must scan only the
 * principal's tables and call only the functions on an allow-list (plan-calls.ts), since the catalog, which every role
 * may read, would tell other tables' names. The plan is Postgres's own reading of the statement, so quoting or `U&`
 * escapes cannot hide a name from it.
 */

/** Set-returning functions a FROM clause may use: they read no tables. */
const ALLOWED_FUNCTION_SCANS = new Set(['generate_series', 'unnest']);

interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  Schema?: string;
  'Function Name'?: string;
  Plans?: PlanNode[];
}

function planIsAllowed(node: PlanNode, tablesSchema: string, allowed: ReadonlySet<string>): boolean {
  if (node['Relation Name'] !== undefined) {
    if (node.Schema !== tablesSchema || !allowed.has(node['Relation Name'].toLowerCase())) return false;
  }
  const type = node['Node Type'] ?? '';
  if (type === 'Function Scan' && !ALLOWED_FUNCTION_SCANS.has(node['Function Name'] ?? '')) return false;
  if (type === 'Table Function Scan' || type === 'Foreign Scan' || type === 'Custom Scan') return false;
  return (node.Plans ?? []).every((child) => planIsAllowed(child, tablesSchema, allowed));
}

/** SQLSTATEs whose message cannot depend on tables the principal may not see, once every table was vouched for. */
const SCHEMA_FREE_CLASSES = /^(22|42601|42703|42702|42803|42804|42P10|42P18|42611|2201)/;

/** The socket a pg client reads from: the fetch counts its bytes and closes it at the cap. */
function socketOf(client: PoolClient): Socket {
  const stream = (client as unknown as { connection?: { stream?: unknown } }).connection?.stream;
  if (!(stream instanceof Socket))
    throw new StoreError("The PostgreSQL client exposes no socket to bound a table query's fetch by.");
  return stream;
}

/** Bytes on the wire of the set-up statements and a plan, besides the constants a plan may show (up to a value's bound each). */
const PLAN_BYTES = 256 * 1024;

const timeoutError = (timeoutMs: number) =>
  new QueryRejectedError(
    'query_timeout',
    `The query ran longer than ${timeoutMs} ms (tables.timeoutMs, EVIDENT_TABLE_TIMEOUT_MS) and was stopped.`,
    {
      hint: 'Aggregate over fewer rows, avoid cross joins and unbounded recursive CTEs, or raise the time limit.',
    },
  );

/**
 * Runs a guarded query on a connection of its own (`connect`), as the reader role, read-only and time-limited:
 * `statement_timeout` stops it in the server, and a timer over the whole exchange (plan check, fetch, parsing)
 * closes the connection. The client reads at most about four bytes on the wire per byte of the bound of each step
 * (text forms of numbers and bytea are longer than their values) before the connection is closed, then the rows
 * are counted against the bounds exactly.
 */
export async function runTableQuery(
  connect: () => Promise<PoolClient>,
  names: SchemaNames,
  guarded: GuardedQuery,
  readable: { sqlNames: readonly string[]; all: boolean },
  limits: ResolvedTableQueryLimits,
  /** When the query was asked: its time limit counts its wait for a turn (table-query-limits.ts). */
  started = performance.now(),
): Promise<TableQueryResult> {
  const allowed = readable.sqlNames.map((name) => name.toLowerCase());
  const client = await connect();
  const socket = socketOf(client);
  let stopped: Error | undefined;
  const stop = (error: Error) => {
    if (stopped) return;
    stopped = error;
    socket.destroy();
  };
  // The client reports a closed connection as an error event too; the query's own rejection carries it.
  const ignore = () => undefined;
  client.on('error', ignore);
  const timer = setTimeout(
    () => stop(timeoutError(limits.timeoutMs)),
    Math.max(0, limits.timeoutMs - (performance.now() - started)),
  );
  // Every byte the server sends is counted against the bound of the current step: a plan shows constants folded
  // into it (a `repeat('x', 1e8)` becomes a 100 MB literal), the fetch shows the rows.
  let received = 0;
  let bound: { bytes: number; error: () => Error } = {
    bytes: PLAN_BYTES + 4 * limits.maxValueBytes,
    error: () => new QueryTooLargeError('value', limits.maxValueBytes),
  };
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > bound.bytes) stop(bound.error());
  };
  socket.on('data', count);
  try {
    await client.query('BEGIN');
    const left = limits.timeoutMs - (performance.now() - started);
    if (left <= 0) throw timeoutError(limits.timeoutMs);
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(left))}`);
    // Temporary files of sorts and hashes count against the working memory bound where the role may set it.
    await client.query(`SELECT set_config('temp_file_limit', $1, true) WHERE current_setting('is_superuser') = 'on'`, [
      `${Math.max(1, Math.floor(limits.maxMemoryBytes / 1024))}kB`,
    ]);
    await client.query(`SET LOCAL search_path = "${names.tables}"`);
    // From here the transaction is read-only and runs as a role that may read the principal's tables and no others.
    await assumeQueryRole(client, names, readable.all ? 'all' : readable.sqlNames);
    const explained = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (VERBOSE, FORMAT JSON) ${guarded.sql}`,
    );
    const plan = explained.rows[0]?.['QUERY PLAN'][0]?.Plan;
    if (!plan || forbiddenCall(plan) !== undefined || !planIsAllowed(plan, names.tables, new Set(allowed))) {
      throw tableNotAllowedError(allowed);
    }
    await client.query(`DECLARE evident_table_query NO SCROLL CURSOR FOR ${guarded.sql}`);
    const maxRows = limits.maxRows;
    received = 0;
    bound = {
      bytes: 4 * limits.maxResultBytes + 64 * (maxRows + 1) + 64 * 1024,
      error: () => new QueryTooLargeError('result', limits.maxResultBytes),
    };
    const fetched = await client.query({
      text: `FETCH FORWARD ${maxRows + 1} FROM evident_table_query`,
      rowMode: 'array',
    });
    socket.off('data', count);
    if (performance.now() - started > limits.timeoutMs) throw timeoutError(limits.timeoutMs);
    const columns = fetched.fields.map((field) => field.name);
    const rows = (fetched.rows as unknown[][]).slice(0, maxRows);
    checkResultBytes(columns, rows, limits);
    return { columns, rows, truncated: fetched.rows.length > maxRows };
  } catch (error) {
    throw stopped ?? rejection(error, guarded, allowed, limits);
  } finally {
    clearTimeout(timer);
    socket.off('data', count);
    let broken = stopped !== undefined;
    if (!broken) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
    }
    // A closed connection may still report its end; a healthy one goes back to the pool without the listener.
    if (!broken) client.off('error', ignore);
    client.release(broken);
  }
}

function rejection(
  error: unknown,
  guarded: GuardedQuery,
  allowed: readonly string[],
  limits: ResolvedTableQueryLimits,
): Error {
  if (QueryRejectedError.isInstance(error) || QueryTooLargeError.isInstance(error)) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code === '57014') return timeoutError(limits.timeoutMs);
  // The server's own bounds: memory, temp_file_limit (53400), a value past its length limit (54000).
  if (code === '53200' || code === '53400') return new QueryTooLargeError('memory', limits.maxMemoryBytes);
  if (code === '54000') return new QueryTooLargeError('value', limits.maxValueBytes);
  // Postgres's message is passed on only when it cannot depend on tables the principal may not see: a syntax
  // error, or a column/type/data error once the guard's parser vouched for every table of the statement.
  const passOn = code === '42601' || (guarded.tables !== undefined && SCHEMA_FREE_CLASSES.test(code));
  if (!passOn) return tableNotAllowedError(allowed);
  return new QueryRejectedError('query_rejected', `The query failed: ${(error as Error).message}.`, {
    hint: 'Check the column names and types listed for the table; quote names with spaces in double quotes.',
  });
}
