import type { PoolClient } from 'pg';
import { QueryRejectedError } from '../../errors/index.ts';
import type { TableQueryLimits, TableQueryResult } from '../ports/document-store.ts';
import { tableNotAllowedError, type GuardedQuery } from '../sql-guard.ts';

/**
 * Read-only table queries on Postgres. Besides the shared guard, three walls: the statement runs in a READ ONLY
 * transaction as the store's reader role (which may read the ingested tables and nothing of the store), with
 * `statement_timeout`; and its plan (EXPLAIN VERBOSE) must scan only the principal's tables and call none of the
 * functions that read files, settings, the catalog by name, or run SQL of their own (`query_to_xml`, …), which
 * could reach tables the plan does not show. The plan is Postgres's own reading of the statement, so quoting or
 * `U&` escapes cannot hide a name from it.
 */

/** Calls and casts that reach outside the visible tables: file and catalog access, settings, SQL-running XML. */
const FORBIDDEN_CALL =
  /\b(pg_\w+|set_config|current_setting|has_\w+_privilege|\w*_to_xml\w*|\w*_to_xmlschema|to_reg\w+|lo_\w+|dblink\w*|txid_\w+|current_schemas?|current_database|inet_\w+)\s*\(|::\s*"?reg\w+/i;
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

/** Runs a guarded query on a connection of its own (`connect`), as the reader role, read-only and time-limited. */
export async function runTableQuery(
  connect: () => Promise<PoolClient>,
  names: { tables: string; reader: string },
  guarded: GuardedQuery,
  allowed: readonly string[],
  limits: TableQueryLimits,
): Promise<TableQueryResult> {
  const client = await connect();
  let broken = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(limits.timeoutMs))}`);
    await client.query(`SET LOCAL search_path = "${names.tables}"`);
    await client.query(`SET LOCAL ROLE "${names.reader}"`);
    const explained = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (VERBOSE, FORMAT JSON) ${guarded.sql}`);
    const plan = explained.rows[0]?.['QUERY PLAN'][0]?.Plan;
    if (!plan || FORBIDDEN_CALL.test(JSON.stringify(plan)) || !planIsAllowed(plan, names.tables, new Set(allowed))) {
      throw tableNotAllowedError(allowed);
    }
    await client.query(`DECLARE evident_table_query NO SCROLL CURSOR FOR ${guarded.sql}`);
    const maxRows = Math.floor(limits.maxRows);
    const fetched = await client.query({ text: `FETCH FORWARD ${maxRows + 1} FROM evident_table_query`, rowMode: 'array' });
    const rows = fetched.rows as unknown[][];
    return { columns: fetched.fields.map((field) => field.name), rows: rows.slice(0, maxRows), truncated: rows.length > maxRows };
  } catch (error) {
    throw rejection(error, guarded, allowed, limits);
  } finally {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    client.release(broken);
  }
}

function rejection(error: unknown, guarded: GuardedQuery, allowed: readonly string[], limits: TableQueryLimits): Error {
  if (error instanceof QueryRejectedError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code === '57014') {
    return new QueryRejectedError('query_timeout', `The query ran longer than ${limits.timeoutMs} ms and was stopped.`, {
      hint: 'Aggregate over fewer rows, avoid cross joins and unbounded recursive CTEs, or raise the time limit.',
    });
  }
  // Postgres's message is passed on only when it cannot depend on tables the principal may not see: a syntax
  // error, or a column/type/data error once the guard's parser vouched for every table of the statement.
  const passOn = code === '42601' || (guarded.tables !== undefined && SCHEMA_FREE_CLASSES.test(code));
  if (!passOn) return tableNotAllowedError(allowed);
  return new QueryRejectedError('query_rejected', `The query failed: ${(error as Error).message}.`, {
    hint: 'Check the column names and types listed for the table; quote names with spaces in double quotes.',
  });
}
