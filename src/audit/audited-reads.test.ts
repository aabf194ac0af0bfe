import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal, TableData } from '../domain/index.ts';
import { isEvidentError } from '../errors/index.ts';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/store.ts';
import { AuditRecorder } from './audit-recorder.ts';
import { auditedDocumentRead, auditedTableQuery } from './audited-reads.ts';

let dir: string;
let store: SqliteStore;
let audit: AuditRecorder;
let table = '';
const carol: Principal = { id: 'carol', groups: ['sales'], roles: ['member'] };
const LIMITS = { maxRows: 10, timeoutMs: 5_000 };

const orders: TableData = {
  title: 'orders',
  columns: [{ name: 'customer', type: 'text' }],
  rows: [['ACME'], ['Globex']],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-audited-reads-'));
  store = await openSqliteStore(join(dir, 'store.db'));
  audit = new AuditRecorder({ store, config: { questions: 'text' }, askTopK: 5 });
  await store.putDocument({
    document: {
      docId: 'sales.csv',
      source: 'sales.csv',
      title: 'Sales',
      type: 'csv',
      contentHash: 'h',
      bytes: 1,
      acl: ['group:sales'],
      tags: [],
    },
    chunks: [
      {
        id: 'sales.csv#0',
        docId: 'sales.csv',
        ordinal: 0,
        text: 'rows',
        headingPath: [],
        startOffset: 0,
        endOffset: 4,
      },
    ],
    keywordText: ['rows'],
    vectors: [new Float32Array([1, 0, 0, 0])],
    embedder: { id: 'test', dimension: 4 },
    chapters: [],
    tables: [orders],
  });
  table = (await store.listTables(carol))[0]?.sqlName as string;
});
afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('audited reads', () => {
  it('records a table query with its statement and the documents it could read, and a refused one with its code', async () => {
    const sql = `SELECT count(*) FROM ${table}`;
    const services = { store, audit };
    expect((await auditedTableQuery(services, { sql, principal: carol, limits: LIMITS, surface: 'cli' })).rows).toEqual(
      [[2]],
    );
    const refused = await failureOf(
      auditedTableQuery(services, {
        sql: 'SELECT * FROM tbl_secret',
        principal: carol,
        limits: LIMITS,
        surface: 'mcp',
      }),
    );
    expect(isEvidentError(refused)).toBe(true);
    const entries = (await store.listAudit({ limit: 10, action: 'table.query' })).reverse();
    expect(entries.map((e) => [e.actor, e.surface, e.question, e.returnedDocIds, e.outcome])).toEqual([
      ['carol', 'cli', sql, ['sales.csv'], 'ok'],
      ['carol', 'mcp', 'SELECT * FROM tbl_secret', ['sales.csv'], 'query_rejected'],
    ]);
  });

  it('serves nothing it cannot record: a table query or a document read fails when the log refuses the entry', async () => {
    const db = new Database(store.location);
    db.exec(
      "CREATE TRIGGER audit_refused BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit disk full'); END;",
    );
    try {
      const query = auditedTableQuery(
        { store, audit },
        { sql: `SELECT * FROM ${table}`, principal: carol, limits: LIMITS, surface: 'cli' },
      );
      expect(String(await failureOf(query))).toMatch(/audit|store/i);
      let served = false;
      const read = auditedDocumentRead(
        { audit },
        { docId: 'sales.csv', principal: carol, surface: 'http' },
        async () => {
          served = true;
          return 'the file';
        },
      );
      expect(await failureOf(read)).toBeDefined();
      // The content was read, but the read's promise failed: nothing reaches the caller.
      expect(served).toBe(true);
    } finally {
      db.exec('DROP TRIGGER audit_refused');
      db.close();
    }
  });

  it('refuses a document id no document can have, as invalid input, before any record', async () => {
    const read = auditedDocumentRead(
      { audit },
      { docId: 'x'.repeat(600), principal: carol, surface: 'http' },
      async () => 'never',
    );
    expect(await failureOf(read)).toMatchObject({ code: 'invalid_input' });
  });
});
