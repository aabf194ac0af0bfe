import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../errors/index.ts';
import { analyzeForIndex } from '../../text/analyzer.ts';
import { encodeAnalysedForm } from '../../text/analysed-form.ts';
import { chunkSearchText } from '../../text/chunk-search-text.ts';
import { ADMIN, documentWrite } from '../../testing/store-conformance/fixtures.ts';
import { migrate, schemaVersion } from './migrate.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';
import { openSqliteStore } from './store.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-migrate-'));
let n = 0;
const fresh = () => join(root, `db-${++n}.sqlite`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const latest = MIGRATIONS.length;

describe('migrations', () => {
  it('brings a new file to the latest version and records every step', async () => {
    const path = fresh();
    await (await openSqliteStore(path)).close();
    const db = new Database(path, { readonly: true });
    expect(schemaVersion(db)).toBe(latest);
    expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual(
      MIGRATIONS.map(({ version, name }) => ({ version, name })),
    );
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('migrates an older file forward, keeping its data', () => {
    const path = fresh();
    const db = new Database(path);
    migrate(db, MIGRATIONS, { location: path });
    db.prepare("INSERT INTO users (name, groups, roles, created_at) VALUES ('ann', '[]', '[\"member\"]', 'now')").run();
    const next: Migration = {
      version: latest + 1,
      name: 'add-user-email',
      up: (target) => target.exec('ALTER TABLE users ADD COLUMN email TEXT'),
    };
    expect(migrate(db, [...MIGRATIONS, next], { location: path })).toEqual({ from: latest, to: latest + 1 });
    expect(schemaVersion(db)).toBe(latest + 1);
    expect(db.prepare('SELECT name, email FROM users').all()).toEqual([{ name: 'ann', email: null }]);
    expect(migrate(db, [...MIGRATIONS, next], { location: path })).toEqual({ from: latest + 1, to: latest + 1 });
    db.close();
  });

  it('opens a file from the previous schema version through openSqliteStore', async () => {
    const path = fresh();
    const db = new Database(path);
    migrate(db, MIGRATIONS.slice(0, -1), { location: path });
    expect(schemaVersion(db)).toBe(latest - 1);
    db.close();
    const store = await openSqliteStore(path);
    await store.upsertUser({ name: 'ann', groups: [] });
    expect((await store.listUsers()).map((user) => user.name)).toEqual(['ann']);
    await store.close();
    const check = new Database(path, { readonly: true });
    expect(schemaVersion(check)).toBe(latest);
    check.close();
  });

  it('fills the chunks of a store from before the analysed forms with them, as ingestion analyses them', async () => {
    const path = fresh();
    const db = new Database(path);
    const mine = MIGRATIONS.findIndex((migration) => migration.name === 'chunk-analysed-form');
    migrate(db, MIGRATIONS.slice(0, mine), { location: path });
    db.prepare(
      `INSERT INTO documents (pk, doc_id, source, title, type, content_hash, bytes, ingested_at)
       VALUES (1, 'a.md', 'a.md', 'Supply terms', 'markdown', 'h', 10, 'now')`,
    ).run();
    const text = 'The Supplier delivers within 30 days of CT-2024-0193.';
    db.prepare(
      `INSERT INTO chunks (pk, id, doc_pk, ordinal, text, heading_path, start_offset, end_offset)
       VALUES (1, 'a.md#0', 1, 0, ?, '["Delivery"]', 0, 10)`,
    ).run(text);
    db.close();
    await (await openSqliteStore(path)).close();
    const check = new Database(path, { readonly: true });
    const row = check.prepare('SELECT analysed FROM chunks WHERE pk = 1').get() as { analysed: Buffer };
    check.close();
    const terms = analyzeForIndex(chunkSearchText({ title: 'Supply terms', headingPath: ['Delivery'], text }));
    expect(new Uint8Array(row.analysed)).toEqual(encodeAnalysedForm(text, terms));
  });

  it('rolls back a failing step and leaves the file at the last good version', () => {
    const path = fresh();
    const db = new Database(path);
    const broken: Migration = {
      version: latest + 1,
      name: 'broken',
      up: (target) => {
        target.exec('CREATE TABLE half_done (x INTEGER)');
        target.exec('THIS IS NOT SQL');
      },
    };
    expect(() => migrate(db, [...MIGRATIONS, broken], { location: path })).toThrow(StoreError);
    expect(schemaVersion(db)).toBe(latest);
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'half_done'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a file written by a newer Evident', async () => {
    const path = fresh();
    await (await openSqliteStore(path)).close();
    const db = new Database(path);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 'later')").run(
      latest + 5,
    );
    db.close();
    const error = await openSqliteStore(path).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toMatch(new RegExp(`schema version ${latest + 5}, newer`));
    expect((error as StoreError).hint).toMatch(/Upgrade Evident/);
  });

  it('refuses to migrate through a read-only handle', async () => {
    const path = fresh();
    new Database(path).close();
    await expect(openSqliteStore(path, { readonly: true })).rejects.toThrow(/needs migrating/);
  });

  it('upgrades a store with keyword postings (schema 25) to the recent postings table (026), searching the same', async () => {
    const path = fresh();
    const db = new Database(path);
    migrate(db, MIGRATIONS.slice(0, 25), { location: path });
    db.close();
    const store = await openSqliteStore(path);
    const chunk = (text: string) => ({ text, keywords: text, vector: new Float32Array(8).fill(0.5) });
    await store.putDocuments([
      documentWrite({ docId: 'a.md', chunks: [chunk('merged postings stay'), chunk('recent postings')] }),
    ]);
    const found = (await store.keywordSearch(['postings'], ADMIN, 10)).map((hit) => hit.chunkId).sort();
    await store.close();
    expect(found).toEqual(['a.md#0', 'a.md#1']);
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT count FROM keyword_recent WHERE term = 'postings'").all()).toEqual([{ count: 2 }]);
    check.close();
  });
});

describe('opening', () => {
  it('refuses calls after close with a StoreError', async () => {
    const store = await openSqliteStore(fresh());
    await store.close();
    await store.close();
    await expect(store.listUsers()).rejects.toBeInstanceOf(StoreError);
    await expect(
      store.vectorSearch(new Float32Array(4), { id: 'x', groups: [], roles: ['admin'] }, 3),
    ).rejects.toBeInstanceOf(StoreError);
    await expect(store.upsertUser({ name: 'x', groups: [] })).rejects.toBeInstanceOf(StoreError);
  });

  it('creates missing parent folders', async () => {
    const path = join(root, 'deep', 'er', 'evident.db');
    const store = await openSqliteStore(path);
    expect(store.location).toBe(path);
    expect(store.backend).toBe('sqlite');
    await store.close();
  });

  it('reports a file that is not a database as a StoreError', async () => {
    const path = fresh();
    writeFileSync(path, 'this is not sqlite, just text that is long enough to have a header '.repeat(20));
    await expect(openSqliteStore(path)).rejects.toBeInstanceOf(StoreError);
  });

  it('reads but refuses writes when read-only', async () => {
    const path = fresh();
    const writer = await openSqliteStore(path);
    await writer.upsertUser({ name: 'ann', groups: [] });
    await writer.close();
    const reader = await openSqliteStore(path, { readonly: true });
    expect((await reader.getUser('ann'))?.name).toBe('ann');
    await expect(reader.upsertUser({ name: 'bo', groups: [] })).rejects.toBeInstanceOf(StoreError);
    await reader.close();
    await expect(openSqliteStore(join(root, 'missing.db'), { readonly: true })).rejects.toBeInstanceOf(StoreError);
  });
});
