import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PAGE_CACHE_KIB, SqliteConnection } from './connection.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-page-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the connection page cache', () => {
  it('is PAGE_CACHE_KIB on a writable and on a read-only connection, not SQLite’s 2 MiB default', () => {
    const path = join(root, 'store.db');
    const writer = SqliteConnection.open(path);
    const reader = SqliteConnection.open(path, { readonly: true });
    try {
      for (const conn of [writer, reader]) {
        expect(conn.db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
      }
      expect(PAGE_CACHE_KIB * 1024).toBeGreaterThan(2_048_000);
    } finally {
      reader.close();
      writer.close();
    }
  });
});
