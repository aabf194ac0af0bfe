'use strict';
/*
 * Runs read-only table queries for the SQLite store in a process of its own: better-sqlite3 is synchronous and
 * exposes neither sqlite3_interrupt nor a progress handler, so a query that runs too long (a recursive CTE, a
 * cross join) can only be stopped by killing the process that runs it. Plain CommonJS so it starts without a
 * TypeScript loader. argv[2]: the path of better-sqlite3. Frames on stdin (requests) and stdout (replies): a
 * 4-byte big-endian length, then v8.serialize of the message; see runner.ts.
 */
const v8 = require('node:v8');
const Database = require(process.argv[2]);

let connection;
let openedPath;

function open(db) {
  // Sorts and temporary tables stay in memory, where the process's data limit bounds them, never in a temp file.
  db.pragma('temp_store = MEMORY');
  return db;
}

function connect(request) {
  if (request.image) {
    if (connection) connection.close();
    openedPath = undefined;
    connection = open(
      new Database(Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength), {
        readonly: true,
      }),
    );
    return connection;
  }
  if (!connection || openedPath !== request.path) {
    if (connection) connection.close();
    connection = open(new Database(request.path, { readonly: true, fileMustExist: true }));
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
      .prepare(
        'SELECT rootpage FROM main.sqlite_schema WHERE lower(tbl_name) IN (SELECT lower(value) FROM json_each(?))',
      )
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

/** The byte rule of src/store/table-query-limits.ts (valueBytes), which the parent applies again and which decides. */
function valueBytes(value) {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === 'number' || typeof value === 'bigint') return 8;
  return 1;
}

const tooLarge = (bound) => ({ ok: false, reason: 'too_large', bound });

/** Reads rows until the row, byte or time bound: the process stops producing where a bound is crossed. */
function readRows(statement, request, deadline) {
  const columns = statement.columns().map((column) => column.name);
  let bytes = 0;
  for (const name of columns) bytes += valueBytes(name);
  if (bytes > request.maxResultBytes) return tooLarge('result');
  const rows = [];
  let truncated = false;
  for (const row of statement.iterate()) {
    if (rows.length >= request.maxRows) {
      truncated = true;
      break;
    }
    for (const value of row) {
      const size = valueBytes(value);
      if (size > request.maxValueBytes) return tooLarge('value');
      bytes += size;
    }
    if (bytes > request.maxResultBytes) return tooLarge('result');
    if (Date.now() > deadline) return { ok: false, reason: 'timeout' };
    rows.push(row);
  }
  return { ok: true, columns, rows, truncated };
}

function run(request) {
  const deadline = Date.now() + request.timeoutMs;
  const db = connect(request);
  let statement;
  try {
    statement = db.prepare(request.sql);
  } catch (error) {
    return failure(error);
  }
  if (!statement.reader || !statement.readonly) return { ok: false, reason: 'not_select' };
  // One read transaction: the plan check and the rows come from the same schema and snapshot.
  return db.transaction(() => {
    if (!planIsAllowed(db, request.sql, request.allowed)) return NOT_ALLOWED;
    statement.raw(true);
    return readRows(statement, request, deadline);
  })();
}

function failure(error) {
  const message = String((error && error.message) || error).slice(0, 500);
  // SQLite's own bounds: an allocation the process's data limit refused, a value past SQLite's length limit.
  if (/out of memory/i.test(message)) return tooLarge('memory');
  if (/string or blob too big/i.test(message)) return tooLarge('value');
  return { ok: false, reason: 'sql_error', message };
}

function send(message) {
  const body = v8.serialize(message);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  process.stdout.write(Buffer.concat([header, body]));
}

let pending = [];
let pendingBytes = 0;
process.stdin.on('data', (chunk) => {
  pending.push(chunk);
  pendingBytes += chunk.length;
  while (pendingBytes >= 4) {
    // Only the header is joined until the whole frame is there: an in-memory store's image is copied once.
    if (pending[0].length < 4) pending = [Buffer.concat(pending)];
    const length = pending[0].readUInt32BE(0);
    if (pendingBytes < 4 + length) return;
    const buffered = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    const request = v8.deserialize(buffered.subarray(4, 4 + length));
    const rest = buffered.subarray(4 + length);
    pending = rest.length ? [rest] : [];
    pendingBytes = rest.length;
    let reply;
    try {
      reply = run(request);
    } catch (error) {
      reply = failure(error);
    }
    send({ id: request.id, ...reply });
  }
});
process.stdin.on('end', () => process.exit(0));
send({ type: 'ready' });
