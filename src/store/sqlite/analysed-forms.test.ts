import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, documentWrite, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { analyzeForIndex } from '../../text/analyzer.ts';
import { encodeAnalysedForm } from '../../text/analysed-form.ts';
import { chunkSearchText } from '../../text/chunk-search-text.ts';
import { migrate, schemaVersion } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { openSqliteStore } from './store.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-analysed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TEXTS = [
  'The Supplier shall deliver the goods within thirty days of CT-2024-0193.',
  'Notice periods: 90 days; 供应商交付 within ｓｕｐｐｌｉｅｒ terms, café naïve.',
  'Section 2 restates the delivery terms.',
];

/** A document written as ingestion writes it: each chunk's keyword text is its search text's index terms. */
function ingested(docId: string, acl: string[] = []) {
  let seed = 1;
  const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const write = documentWrite({ docId, acl, chunks: TEXTS.map((text) => ({ text, vector: unitVector(next) })) });
  write.keywordText = write.chunks.map((chunk) =>
    analyzeForIndex(chunkSearchText({ ...chunk, title: write.document.title })),
  );
  return write;
}

const formsIn = (path: string) => {
  const db = new Database(path, { readonly: true });
  const rows = db.prepare('SELECT id, analysed FROM chunks ORDER BY pk').all() as {
    id: string;
    analysed: Buffer | null;
  }[];
  db.close();
  return rows.map((row) => ({ id: row.id, analysed: row.analysed ? new Uint8Array(row.analysed) : null }));
};

describe('stored analysed forms (SQLite)', () => {
  it('are written with each chunk, from its text and index terms, and read only when getChunks asks for them', async () => {
    const path = join(root, 'written.sqlite');
    const store = await openSqliteStore(path);
    const write = ingested('a.md', ['group:legal']);
    await store.putDocument(write);
    const ids = write.chunks.map((chunk) => chunk.id);
    const withForms = await store.getChunks(ids, ALICE, { analysed: true });
    expect(withForms.map((chunk) => [chunk.id, chunk.analysed && new Uint8Array(chunk.analysed)])).toEqual(
      write.chunks.map((chunk, i) => [chunk.id, encodeAnalysedForm(chunk.text, write.keywordText[i] as string)]),
    );
    const plain = await store.getChunks(ids, ADMIN);
    expect(plain.every((chunk) => !('analysed' in chunk))).toBe(true);
    expect(await store.getChunks(ids, { id: 'eve', groups: [], roles: ['member'] }, { analysed: true })).toEqual([]);
    await store.close();
  });

  it('are filled by the upgrade for a store written before them, as the writer writes them', async () => {
    const path = join(root, 'upgraded.sqlite');
    const store = await openSqliteStore(path);
    await store.putDocument(ingested('a.md'));
    await store.putDocument(ingested('b.md'));
    await store.close();
    const written = formsIn(path);
    expect(written).toHaveLength(6);
    expect(written.every((row) => row.analysed !== null)).toBe(true);

    // The same rows in a store of the schema before this column (its documents and chunks copied over).
    const mine = MIGRATIONS.findIndex((migration) => migration.name === 'chunk-analysed-form');
    const old = join(root, 'old.sqlite');
    const db = new Database(old);
    migrate(db, MIGRATIONS.slice(0, mine), { location: old });
    expect(schemaVersion(db)).toBe(MIGRATIONS[mine - 1]?.version);
    db.prepare('ATTACH DATABASE ? AS written').run(path);
    for (const table of ['documents', 'chunks']) {
      const columns = (db.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[])
        .map((column) => column.name)
        .join(', ');
      expect(columns).not.toContain('analysed');
      db.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM written.${table}`);
    }
    db.exec('DETACH DATABASE written');
    db.close();

    await (await openSqliteStore(old)).close();
    expect(formsIn(old)).toEqual(written);
  });
});
