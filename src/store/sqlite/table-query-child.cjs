'use strict';
/*
 * Runs read-only table queries for the SQLite store in a process of its own: better-sqlite3 is synchronous and
 * exposes neither sqlite3_interrupt nor a progress handler, so a query that runs too long (a recursive CTE, a
 * cross join) can only be stopped by killing the process that runs it. Plain CommonJS so it starts without a
 * TypeScript loader. argv[2]: the path of better-sqlite3. Messages: see table-query-runner.ts.
 */
const Database = require(process.argv[2]);

let connection;
let openedPath;

function connect(request) {
  if (request.image) {
    if (connection) connection.close();
    openedPath = undefined;
    connection = new Database(Buffer.from(request.image), { readonly: true });
    return connection;
  }
  if (!connection || openedPath !== request.path) {
    if (connection) connection.close();
    connection = new Database(request.path, { readonly: true, fileMustExist: true });
    openedPath = request.path;
  }
  return connection;
}

const NOT_ALLOWED = { ok: false, reason: 'not_allowed' };
const RISKY_FUNCTION = /^(sqlite_attach|sqlite_detach|load_extension)\(/;

/**
 * The authorizer better-sqlite3 lacks: SQLite's own plan says which b-trees the statement opens. Every table or
 * index it reads must belong to an allowed table of the main database; virtual tables (table-valued functions
 * such as pragma_* or json_each, FTS, vectors) and writes are refused.
 */
function planIsAllowed(db, sql, allowed) {
  const roots = new Set(
    db
      .prepare('SELECT rootpage FROM main.sqlite_schema WHERE lower(tbl_name) IN (SELECT lower(value) FROM json_each(?))')
      .pluck()
      .all(JSON.stringify(allowed)),
  );
  for (const op of db.prepare(`EXPLAIN ${sql}`).all()) {
    switch (op.opcode) {
      case 'OpenRead':
      case 'ReopenIdx':
        if (op.p3 !== 0 || !roots.has(op.p2)) return false;
        break;
      case 'OpenWrite':
      case 'VOpen':
      case 'VCreate':
      case 'VDestroy':
      case 'VUpdate':
      case 'ParseSchema':
        return false;
      case 'Transaction':
        if (op.p2 !== 0) return false;
        break;
      case 'Function':
      case 'PureFunc':
        if (RISKY_FUNCTION.test(String(op.p4))) return false;
        break;
      default:
    }
  }
  return true;
}

function run(request) {
  const db = connect(request);
  let statement;
  try {
    statement = db.prepare(request.sql);
  } catch (error) {
    return { ok: false, reason: 'sql_error', message: String(error.message) };
  }
  if (!statement.reader || !statement.readonly) return { ok: false, reason: 'not_select' };
  // One read transaction: the plan check and the rows come from the same schema and snapshot.
  return db.transaction(() => {
    if (!planIsAllowed(db, request.sql, request.allowed)) return NOT_ALLOWED;
    statement.raw(true);
    const rows = [];
    let truncated = false;
    for (const row of statement.iterate()) {
      if (rows.length >= request.maxRows) {
        truncated = true;
        break;
      }
      rows.push(row);
    }
    return { ok: true, columns: statement.columns().map((column) => column.name), rows, truncated };
  })();
}

process.on('message', (request) => {
  let reply;
  try {
    reply = run(request);
  } catch (error) {
    reply = { ok: false, reason: 'sql_error', message: String(error && error.message) };
  }
  process.send({ id: request.id, ...reply });
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
