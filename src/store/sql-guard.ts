import { createRequire } from 'node:module';
import type sqlParserModule from 'node-sql-parser';
import { QueryRejectedError } from '../errors/index.ts';

/** SQL dialects a store backend speaks; the guard parses with the backend's own. */
export type SqlDialect = 'sqlite' | 'postgresql';

const sqlParsers = new Map<SqlDialect, typeof sqlParserModule>();

/**
 * node-sql-parser's build of one dialect (`build/sqlite.js`, 0.2 MB; `build/postgresql.js`, 0.3 MB), loaded by the
 * first table query rather than by every process that opens a store. The package's main script holds every dialect's
 * parser (2.5 MB, ~90 ms to load); a dialect's build is the same parser and printer for that dialect alone.
 */
export function sqlParserFor(dialect: SqlDialect): typeof sqlParserModule {
  let parser = sqlParsers.get(dialect);
  if (!parser) {
    parser = createRequire(import.meta.url)(`node-sql-parser/build/${dialect}`) as typeof sqlParserModule;
    sqlParsers.set(dialect, parser);
  }
  return parser;
}

export interface GuardedQuery {
  /** The single statement, without a trailing semicolon. */
  sql: string;
  /**
   * The tables the parser found (lowercase, CTE names removed), all among the allowed ones; `undefined` when
   * the parser does not know the syntax (window functions in SQLite, …): the backend's own check then decides.
   */
  tables: string[] | undefined;
}

/** Words that only appear in statements that write, change the schema, the connection or the transaction. */
const FORBIDDEN_WORDS = new Set([
  'insert',
  'update',
  'delete',
  'merge',
  'upsert',
  'create',
  'drop',
  'alter',
  'attach',
  'detach',
  'pragma',
  'vacuum',
  'reindex',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'into',
  'grant',
  'revoke',
  'truncate',
  'copy',
]);

const DEFAULT_SCHEMA: Record<SqlDialect, string> = { sqlite: 'main', postgresql: 'public' };

/** The longest statement accepted (the `table_query` tool's bound too): enough for any query over a few tables. */
export const MAX_TABLE_QUERY_CHARS = 10_000;

const allowedList = (allowed: readonly string[]): string =>
  allowed.length === 0 ? 'none are visible to you' : [...allowed].sort().join(', ');

/** The refusal for a statement that is not one read-only SELECT. */
export const notOneSelectError = (allowed: readonly string[], why: string): QueryRejectedError =>
  new QueryRejectedError(
    'query_rejected',
    `Only one read-only SELECT statement (optionally WITH … SELECT) can be run: ${why}.`,
    {
      hint: `Ingested tables you may query: ${allowedList(allowed)}.`,
    },
  );

/**
 * The refusal for any table outside the allowed ones. Deliberately the same text whether the table exists,
 * belongs to the store's internals, or belongs to a document the principal may not see.
 */
export const tableNotAllowedError = (allowed: readonly string[]): QueryRejectedError =>
  new QueryRejectedError(
    'query_rejected',
    `The query may read only the ingested tables visible to you (${allowedList(allowed)}), by the names listed there.`,
    {
      hint: 'List them with `evident tables list`; system tables, table functions and other databases are not available.',
    },
  );

interface Token {
  kind: 'word' | 'quoted' | 'string' | 'semicolon' | 'other';
  text: string;
  start: number;
}

/** A small lexer: enough to find words, statement separators and where strings, identifiers and comments end. */
function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const closing: Record<string, string> = { "'": "'", '"': '"', '`': '`', '[': ']' };
  while (i < sql.length) {
    const ch = sql[i] as string;
    if (/\s/.test(ch)) {
      i++;
    } else if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (ch in closing) {
      const close = closing[ch] as string;
      let j = i + 1;
      for (;;) {
        const at = sql.indexOf(close, j);
        if (at === -1) {
          j = sql.length;
          break;
        }
        // A doubled quote is an escaped quote inside the literal.
        if (close !== ']' && sql[at + 1] === close) {
          j = at + 2;
          continue;
        }
        j = at + 1;
        break;
      }
      tokens.push({ kind: ch === "'" ? 'string' : 'quoted', text: sql.slice(i, j), start: i });
      i = j;
    } else if (/[A-Za-z_]/.test(ch)) {
      const match = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i)) as RegExpExecArray;
      tokens.push({ kind: 'word', text: match[0], start: i });
      i += match[0].length;
    } else if (ch === ';') {
      tokens.push({ kind: 'semicolon', text: ch, start: i });
      i++;
    } else {
      tokens.push({ kind: 'other', text: ch, start: i });
      i++;
    }
  }
  return tokens;
}

/** CTE names at any depth of a parsed statement. */
function cteNames(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) cteNames(item, into);
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (Array.isArray(record.with)) {
      for (const cte of record.with as { name?: { value?: unknown } }[]) {
        if (typeof cte.name?.value === 'string') into.add(cte.name.value.toLowerCase());
      }
    }
    for (const value of Object.values(record)) cteNames(value, into);
  }
  return into;
}

/** What the guard reads from a statement's parse: the parse depends on the text and the dialect alone. */
interface ParsedStatement {
  statements: number;
  type: string | undefined;
  ctes: Set<string>;
  tableList: string[];
}

/**
 * Parses recently guarded statements once: the offline table route reads every visible table's cells with the same
 * few statements on every run, and node-sql-parser takes about a millisecond a statement. Bounded: the oldest goes.
 */
const PARSED_KEPT = 256;
const parsedStatements = new Map<string, ParsedStatement | null>();

function parsedStatement(statement: string, dialect: SqlDialect): ParsedStatement | null {
  const key = `${dialect}\n${statement}`;
  const kept = parsedStatements.get(key);
  if (kept !== undefined) return kept;
  let parsed: ParsedStatement | null;
  try {
    const result = new (sqlParserFor(dialect).Parser)().parse(statement, { database: dialect });
    const asts = Array.isArray(result.ast) ? result.ast : [result.ast];
    parsed = {
      statements: asts.length,
      type: asts[0]?.type,
      ctes: cteNames(asts, new Set()),
      tableList: result.tableList,
    };
  } catch {
    parsed = null;
  }
  if (parsedStatements.size >= PARSED_KEPT) parsedStatements.delete(parsedStatements.keys().next().value as string);
  parsedStatements.set(key, parsed);
  return parsed;
}

/**
 * Backend-neutral validation of a read-only table query, before any SQL reaches the database: exactly one
 * statement, SELECT or WITH … SELECT, no word that only writing or session statements use, and — where the
 * dialect's parser understands the statement — only tables among `allowedTables`. Backends must still run it
 * read-only and check the tables themselves (the parser misses table functions and gives up on some syntax).
 */
export function guardTableQuery(
  sql: string,
  options: { allowedTables: readonly string[]; dialect: SqlDialect },
): GuardedQuery {
  const allowed = options.allowedTables;
  // Bounded before it is lexed or parsed: both are linear, but nothing reads an unbounded input.
  if (sql.length > MAX_TABLE_QUERY_CHARS) {
    throw notOneSelectError(
      allowed,
      `it is ${sql.length} characters long, more than the ${MAX_TABLE_QUERY_CHARS} allowed`,
    );
  }
  const all = tokenize(sql);
  // Trailing semicolons (and comments, which are not tokens) end the statement; anything after one is another.
  const end = all.findIndex((token) => token.kind === 'semicolon');
  if (end !== -1 && all.slice(end).some((token) => token.kind !== 'semicolon')) {
    throw notOneSelectError(allowed, 'it contains several statements');
  }
  const tokens = end === -1 ? all : all.slice(0, end);
  const statement = end === -1 ? sql.trim() : sql.slice(0, (all[end] as Token).start).trim();
  const first = tokens[0];
  if (!first) throw notOneSelectError(allowed, 'the query is empty');
  if (first.kind !== 'word' || !['select', 'with'].includes(first.text.toLowerCase())) {
    throw notOneSelectError(allowed, `it starts with ${JSON.stringify(first.text.slice(0, 20))}`);
  }
  const forbidden = tokens.find((token) => token.kind === 'word' && FORBIDDEN_WORDS.has(token.text.toLowerCase()));
  if (forbidden) throw notOneSelectError(allowed, `${forbidden.text.toUpperCase()} is not allowed`);

  const parsed = parsedStatement(statement, options.dialect);
  if (!parsed) return { sql: statement, tables: undefined };
  if (parsed.statements !== 1) throw notOneSelectError(allowed, 'it contains several statements');
  if (parsed.type !== 'select') throw notOneSelectError(allowed, 'it is not a SELECT');

  const { ctes } = parsed;
  const permitted = new Set(allowed.map((name) => name.toLowerCase()));
  const tables = new Set<string>();
  for (const entry of parsed.tableList) {
    // Entries look like `select::<schema or null>::<table>`.
    const [kind, schema, name] = entry.split('::');
    if (kind !== 'select' || name === undefined) throw notOneSelectError(allowed, 'it is not a SELECT');
    const table = name.toLowerCase();
    const qualified = schema !== 'null' && schema !== undefined;
    if (!qualified && ctes.has(table)) continue;
    if ((qualified && schema.toLowerCase() !== DEFAULT_SCHEMA[options.dialect]) || !permitted.has(table)) {
      throw tableNotAllowedError(allowed);
    }
    tables.add(table);
  }
  return { sql: statement, tables: [...tables].sort() };
}
