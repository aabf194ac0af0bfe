import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../domain/index.ts';
import { openSqliteStore } from './store.ts';

const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
const root = mkdtempSync(join(tmpdir(), 'evident-tables-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('ingested tables in SQLite', () => {
  it('are real typed tables, queryable with SQL, and dropped with their document', async () => {
    const path = join(root, 'tables.db');
    const store = await openSqliteStore(path);
    const vector = Float32Array.from([1, 0, 0, 0]);
    await store.putDocument({
      document: {
        docId: 'orders.csv',
        source: '/x/orders.csv',
        title: 'orders',
        type: 'csv',
        contentHash: 'h',
        bytes: 1,
        acl: [],
        tags: [],
      },
      chunks: [
        {
          id: 'orders.csv#0',
          docId: 'orders.csv',
          ordinal: 0,
          text: 'rows',
          headingPath: [],
          startOffset: 0,
          endOffset: 4,
        },
      ],
      keywordText: ['rows'],
      vectors: [vector],
      embedder: { id: 'e', dimension: 4 },
      chapters: [],
      tables: [
        {
          title: 'orders',
          columns: [
            { name: 'id', type: 'integer' },
            { name: 'amount', type: 'real' },
            { name: 'customer "name"', type: 'text' },
            { name: 'paid', type: 'boolean' },
          ],
          rows: [
            [1, 10.5, 'ACME', true],
            [2, 4, 'Globex', false],
            [3, '2.5', 'Initech', true],
          ],
        },
      ],
    });
    const [table] = await store.listTables(ADMIN);
    const sqlName = table?.sqlName ?? '';
    const db = new Database(path, { readonly: true });
    expect(db.prepare(`SELECT sum(amount) AS total, sum(paid) AS paid FROM ${sqlName}`).get()).toEqual({
      total: 17,
      paid: 2,
    });
    expect(db.prepare(`SELECT "customer ""name""" AS c FROM ${sqlName} WHERE id = 2`).get()).toEqual({ c: 'Globex' });
    const types = db
      .prepare(`SELECT typeof(id) AS a, typeof(amount) AS b, typeof(paid) AS c FROM ${sqlName} WHERE id = 3`)
      .get();
    expect(types).toEqual({ a: 'integer', b: 'real', c: 'integer' });
    expect(db.prepare('SELECT sql_name, row_count FROM doc_tables').all()).toEqual([
      { sql_name: sqlName, row_count: 3 },
    ]);
    db.close();

    await store.deleteDocument('orders.csv');
    const after = new Database(path, { readonly: true });
    expect(after.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(sqlName)).toBeUndefined();
    expect(after.prepare('SELECT count(*) AS n FROM doc_tables').get()).toEqual({ n: 0 });
    after.close();
    await store.close();
  });
});
