import { z } from 'zod';
import type { Principal, TableRecord } from '../../../domain/index.ts';
import { TABLE_QUERY_DEFAULTS } from '../../../config/tables-schema.ts';
import { isEvidentError } from '../../../errors/index.ts';
import { MAX_TABLE_QUERY_CHARS } from '../../../store/sql-guard.ts';
import type { DocumentStore, TableQueryLimits } from '../../../store/store.ts';

export const TABLE_QUERY_TOOL = 'table_query';

export const tableQueryInputSchema = z.object({
  sql: z.string().trim().min(1, 'sql must be one SELECT statement').max(MAX_TABLE_QUERY_CHARS),
});
export type TableQueryInput = z.infer<typeof tableQueryInputSchema>;

/** The configured bounds' defaults (`tables.*`); an agent passes `config.tables`. */
export const DEFAULT_TABLE_QUERY_LIMITS: TableQueryLimits = TABLE_QUERY_DEFAULTS;
/** Rows and characters per cell shown in the summary an agent reads; the full rows stay in `rows`. */
const SUMMARY_ROWS = 20;
const SUMMARY_CELL_CHARS = 80;

export type TableQueryOutput =
  | {
      ok: true;
      sql: string;
      columns: string[];
      rows: unknown[][];
      truncated: boolean;
      summary: string;
      /** The documents whose tables the statement names: what the rows rest on, for redaction when access is lost. */
      doc_ids: string[];
    }
  | { ok: false; sql: string; error: { code: string; message: string; hint?: string }; summary: string };

export interface TableQueryTool {
  readonly name: typeof TABLE_QUERY_TOOL;
  readonly description: string;
  readonly schema: typeof tableQueryInputSchema;
  /** Refusals and SQL errors come back as `ok: false` (an observation the agent can act on); store failures throw. */
  invoke(input: unknown, principal: Principal): Promise<TableQueryOutput>;
}

/** Numbers without float noise (12786.100000000002 → 12786.1), text cut to a readable length. */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  const text = String(value);
  return text.length > SUMMARY_CELL_CHARS ? `${text.slice(0, SUMMARY_CELL_CHARS - 1)}…` : text;
}

export function summarizeRows(columns: readonly string[], rows: readonly unknown[][], truncated: boolean): string {
  const shown = rows.slice(0, SUMMARY_ROWS).map((row) => row.map(formatCell).join(' | '));
  const count = truncated ? `${rows.length}+ rows (truncated)` : `${rows.length} row${rows.length === 1 ? '' : 's'}`;
  const more = rows.length > SUMMARY_ROWS ? [`… ${rows.length - SUMMARY_ROWS} more`] : [];
  return [`${count}; columns: ${columns.join(' | ')}`, ...shown, ...more].join('\n');
}

/**
 * The documents of the tables a statement names (as a word, in any case): over-inclusive where a name is also written
 * in a literal, so a result is withheld rather than kept when in doubt.
 */
export function namedTablesDocs(sql: string, tables: readonly TableRecord[]): string[] {
  const text = sql.toLowerCase();
  const named = tables.filter((table) =>
    new RegExp(`(?<![\\w$])${table.sqlName.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`, 'u').test(
      text,
    ),
  );
  return [...new Set(named.map((table) => table.docId))];
}

/** Captions reach a prompt whole up to this length; a longer one is cut at a word. */
const MAX_DESCRIPTION_CHARS = 300;

/** The schemas a model needs to write SQL: table names, what they came from, typed columns, the caption. */
export const describeTables = (tables: readonly TableRecord[]): string =>
  tables
    .map(
      (table) =>
        `${table.sqlName} (${table.rowCount} rows, from ${table.docId}): ` +
        table.columns.map((column) => `"${column.name.replaceAll('"', '""')}" ${column.type}`).join(', ') +
        (table.description ? `\n  caption: ${clip(table.description)}` : ''),
    )
    .join('\n');

function clip(text: string): string {
  if (text.length <= MAX_DESCRIPTION_CHARS) return text;
  const cut = text.lastIndexOf(' ', MAX_DESCRIPTION_CHARS);
  return `${text.slice(0, cut > 0 ? cut : MAX_DESCRIPTION_CHARS)} …`;
}

/** The `table_query` tool: one read-only SELECT over the ingested tables the principal may see. */
export function createTableQueryTool(deps: {
  store: DocumentStore;
  limits?: Partial<TableQueryLimits>;
}): TableQueryTool {
  const limits = { ...DEFAULT_TABLE_QUERY_LIMITS, ...deps.limits };
  return {
    name: TABLE_QUERY_TOOL,
    description:
      `Runs one read-only ${deps.store.sqlDialect} SELECT over the ingested tables (CSV/XLSX) and returns the rows. ` +
      'Use it for sums, counts, averages, maxima and filters over table data instead of computing from text. ' +
      'Quote column names with double quotes.',
    schema: tableQueryInputSchema,
    async invoke(input, principal) {
      const parsed = tableQueryInputSchema.safeParse(input);
      const sql = typeof (input as { sql?: unknown } | null)?.sql === 'string' ? (input as { sql: string }).sql : '';
      if (!parsed.success) {
        const message = `Invalid table_query input: ${parsed.error.issues.map((issue) => issue.message).join('; ')}.`;
        return { ok: false, sql, error: { code: 'invalid_input', message }, summary: message };
      }
      try {
        const result = await deps.store.queryTables(parsed.data.sql, principal, limits);
        return {
          ok: true,
          sql: parsed.data.sql,
          ...result,
          summary: summarizeRows(result.columns, result.rows, result.truncated),
          doc_ids: namedTablesDocs(parsed.data.sql, await deps.store.listTables(principal)),
        };
      } catch (error) {
        if (!isEvidentError(error) || error.category !== 'user') throw error;
        const summary = error.toLine();
        return {
          ok: false,
          sql: parsed.data.sql,
          error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
          summary,
        };
      }
    },
  };
}
