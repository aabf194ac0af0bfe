import type { Citation } from '../../../domain/answer.ts';
import type { Principal, TableRecord } from '../../../domain/index.ts';
import { isEvidentError } from '../../../errors/index.ts';
import { sqlParserFor, type SqlDialect } from '../../../store/sql-guard.ts';
import type { ChunkWithSource, DocumentStore } from '../../../store/store.ts';
import { evidenceFrom } from '../evidence-from.ts';
import type { Evidence } from '../../../domain/evidence.ts';

/**
 * The evidence behind a table answer. Ingestion writes every table twice: as a SQL table and as text chunks (a
 * heading `title — columns: a, b` and one `a: 1 | b: x` line per row), so a value computed in SQL can cite the chunk
 * lines of the rows it came from, read through the store with the principal's filter like any retrieved chunk.
 */
export interface TableEvidence {
  /** The chunks holding the cited rows (or the table's heading), as run evidence. */
  evidence: Evidence[];
  /** One citation per cited row line (or the heading line), each quoting its chunk. */
  citations: Citation[];
  /** The cited rows' lines, as the chunks write them. */
  rows: string[];
  /** More rows matched than were cited. */
  more: boolean;
}

/** Rows a table answer cites at most: enough to check a lookup or a small filter, bounded for large aggregates. */
export const CITED_ROWS = 5;
/** Chunks of a table document read to find the rows: a table larger than this cites its heading only. */
const MAX_SCANNED_CHUNKS = 400;
const ROW_LIMITS = { maxRows: CITED_ROWS + 1, timeoutMs: 2_000, maxResultBytes: 64 * 1024, maxValueBytes: 4 * 1024 };

type Ast = Record<string, unknown>;
const isRecord = (value: unknown): value is Ast => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a parsed expression contains an aggregate function (SUM, COUNT, …). */
const hasAggregate = (node: unknown): boolean => {
  if (Array.isArray(node)) return node.some(hasAggregate);
  if (!isRecord(node)) return false;
  if (node.type === 'aggr_func') return true;
  return Object.values(node).some(hasAggregate);
};

/**
 * The SELECT that returns the rows a query's result was computed from: the same table and WHERE, every column. A
 * lookup keeps its ORDER BY and LIMIT (the row a "first"/"largest" query picked); MAX/MIN of one value orders by
 * it; other aggregates read the filtered rows. `undefined` when the rows cannot be named (no single table, joins,
 * GROUP BY, or an aggregate over every row, which the table's heading stands for).
 */
export function rowsSql(sql: string, dialect: SqlDialect): { sql: string; table: string } | undefined {
  let parsed: unknown;
  try {
    parsed = new (sqlParserFor(dialect).Parser)().astify(sql, { database: dialect });
  } catch {
    return undefined;
  }
  const ast = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isRecord(ast) || ast.type !== 'select' || ast._next || ast.with) return undefined;
  const from = ast.from;
  if (
    !Array.isArray(from) ||
    from.length !== 1 ||
    !isRecord(from[0]) ||
    typeof from[0].table !== 'string' ||
    from[0].join
  )
    return undefined;
  if (ast.groupby && (!isRecord(ast.groupby) || ast.groupby.columns)) return undefined;
  const table = from[0].table;
  const columns = Array.isArray(ast.columns) ? ast.columns : [];
  const aggregate = hasAggregate(columns);
  const rows: Ast = {
    ...ast,
    distinct: null,
    columns: [{ expr: { type: 'column_ref', table: null, column: '*' }, as: null }],
    having: null,
  };
  if (aggregate) {
    const only =
      columns.length === 1 && isRecord(columns[0]) && isRecord(columns[0].expr) ? columns[0].expr : undefined;
    const extreme =
      only && only.type === 'aggr_func' && (only.name === 'MAX' || only.name === 'MIN') && isRecord(only.args)
        ? only.args.expr
        : undefined;
    if (extreme) {
      rows.orderby = [{ expr: extreme, type: only?.name === 'MAX' ? 'DESC' : 'ASC' }];
      rows.limit = { seperator: '', value: [{ type: 'number', value: 1 }] };
    } else {
      if (!ast.where) return undefined;
      rows.orderby = null;
      rows.limit = null;
    }
  }
  const limit =
    isRecord(rows.limit) && Array.isArray(rows.limit.value) && isRecord(rows.limit.value[0])
      ? Number(rows.limit.value[0].value)
      : undefined;
  rows.limit = { seperator: '', value: [{ type: 'number', value: Math.min(limit ?? CITED_ROWS + 1, CITED_ROWS + 1) }] };
  try {
    return { sql: new (sqlParserFor(dialect).Parser)().sqlify(rows as never, { database: dialect }), table };
  } catch {
    return undefined;
  }
}

/** "a: 1 | b: x" → cells by column name, for a line that names the table's columns in order. */
function parseRowLine(line: string, columns: readonly string[]): Map<string, string> | undefined {
  const cells = new Map<string, string>();
  let rest = line;
  let next = 0;
  while (rest.length > 0) {
    let found = -1;
    for (let c = next; c < columns.length; c++) {
      if (rest.startsWith(`${columns[c]}: `)) {
        found = c;
        break;
      }
    }
    if (found === -1) return undefined;
    const name = columns[found] as string;
    rest = rest.slice(name.length + 2);
    // The value runs up to the next " | <later column>: ", so a value holding " | " stays whole.
    let end = rest.length;
    for (let c = found + 1; c < columns.length; c++) {
      const at = rest.indexOf(` | ${columns[c]}: `);
      if (at !== -1 && at < end) end = at;
    }
    cells.set(name, rest.slice(0, end));
    rest = end < rest.length ? rest.slice(end + 3) : '';
    next = found + 1;
  }
  return cells.size > 0 ? cells : undefined;
}

/** Whether a SQL value is the cell text ingestion wrote for it ("1250.50" for 1250.5, "TRUE" for true). */
function sameCell(value: unknown, text: string | undefined): boolean {
  if (value === null || value === undefined) return text === undefined || text === '';
  if (text === undefined) return false;
  if (typeof value === 'number') return Number(text) === value;
  if (typeof value === 'boolean') return text.toLowerCase() === String(value);
  return String(value).trim() === text.trim();
}

/** The table's chunks the principal may read (none when the document is larger than the scan bound). */
async function tableChunks(store: DocumentStore, table: TableRecord, principal: Principal): Promise<ChunkWithSource[]> {
  const document = await store.getDocument(table.docId);
  if (!document || document.chunkCount === 0) return [];
  const count = Math.min(document.chunkCount, MAX_SCANNED_CHUNKS);
  const ids = Array.from({ length: count }, (_, ordinal) => `${table.docId}#${ordinal}`);
  return store.getChunks(ids, principal);
}

/**
 * Cites the rows behind a table query's result: runs the rows' SELECT (`rowsSql`) as the principal, finds each row's
 * line in the table document's chunks, and cites up to `CITED_ROWS` of them; when the rows cannot be named (an
 * aggregate over the whole table, a GROUP BY) or are not found, the table's heading line. Nothing is cited from a
 * chunk the principal may not read, and every quote is text of its chunk.
 */
export async function tableEvidence(
  sql: string,
  principal: Principal,
  store: DocumentStore,
  query: string,
): Promise<TableEvidence> {
  const none: TableEvidence = { evidence: [], citations: [], rows: [], more: false };
  const tables = await store.listTables(principal);
  const lower = sql.toLowerCase();
  const named = tables.filter((table) => lower.includes(table.sqlName.toLowerCase()));
  const plan = rowsSql(sql, store.sqlDialect);
  const table =
    (plan && named.find((candidate) => candidate.sqlName === plan.table)) ??
    (named.length === 1 ? named[0] : undefined);
  if (!table) return none;
  const chunks = await tableChunks(store, table, principal);
  if (chunks.length === 0) return none;
  const cited = new Map<string, { chunk: ChunkWithSource; quotes: string[] }>();
  const rows: string[] = [];
  let more = false;
  if (plan) {
    let result: { columns: string[]; rows: unknown[][] } | undefined;
    try {
      result = await store.queryTables(plan.sql, principal, ROW_LIMITS);
    } catch (error) {
      if (!isEvidentError(error) || error.category !== 'user') throw error;
    }
    if (result) {
      more = result.rows.length > CITED_ROWS;
      const wanted = result.rows.slice(0, CITED_ROWS);
      const columns = result.columns;
      const used = new Set<string>();
      for (const row of wanted) {
        for (const chunk of chunks) {
          const line = chunk.text.split('\n').find((candidate) => {
            if (used.has(`${chunk.id}\u0000${candidate}`)) return false;
            const cells = parseRowLine(candidate.trim(), columns);
            return cells !== undefined && columns.every((name, c) => sameCell(row[c], cells.get(name)));
          });
          if (line === undefined) continue;
          used.add(`${chunk.id}\u0000${line}`);
          const quote = line.trim();
          rows.push(quote);
          const entry = cited.get(chunk.id) ?? { chunk, quotes: [] };
          entry.quotes.push(quote);
          cited.set(chunk.id, entry);
          break;
        }
      }
    }
  }
  if (cited.size === 0 || more) {
    // The heading names the table and its columns: what an answer over all (or many) of its rows stands on.
    const heading = `${table.title} — columns: ${table.columns.map((column) => column.name).join(', ')}`;
    const chunk = chunks.find((candidate) => candidate.text.split('\n').some((line) => line.trim() === heading));
    if (chunk) {
      const entry = cited.get(chunk.id) ?? { chunk, quotes: [] };
      entry.quotes.unshift(heading);
      cited.set(chunk.id, entry);
    }
  }
  const evidence = [...cited.values()].map(({ chunk }) => evidenceFrom(chunk, 1, [query]));
  const citations = [...cited.values()].flatMap(({ chunk, quotes }) =>
    quotes.map((quote) => ({
      chunk_id: chunk.id,
      doc_id: chunk.docId,
      source: chunk.source,
      ...(chunk.page === undefined ? {} : { page: chunk.page }),
      quote,
    })),
  );
  return { evidence, citations, rows, more };
}
