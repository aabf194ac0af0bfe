import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './store.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-audit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('sqlite audit log: append-only in the database', () => {
  it('refuses UPDATE and DELETE from any connection to the file, leaving every entry as written', async () => {
    const path = join(root, 'audit.db');
    const store = await openSqliteStore(path);
    const entry = await store.appendAudit({
      actor: 'alice',
      action: 'search',
      question: 'what is the refund window?',
      withheld: 1,
    });
    await store.close();

    // A connection of its own, as a tool or an attacker with the file would open it.
    const db = new Database(path);
    try {
      expect(() => db.prepare("UPDATE audit_log SET actor = 'mallory'").run()).toThrow(/append-only/);
      expect(() => db.prepare('UPDATE audit_log SET withheld = 0 WHERE id = ?').run(entry.id)).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM audit_log WHERE id = ?').run(entry.id)).toThrow(/append-only/);
      // REPLACE deletes the old row without firing delete triggers; an upsert updates it: both refused.
      const replace = "INSERT OR REPLACE INTO audit_log (id, at, actor, action) VALUES (?, 'now', 'mallory', 'search')";
      expect(() => db.prepare(replace).run(entry.id)).toThrow(/append-only/);
      const upsert =
        "INSERT INTO audit_log (id, at, actor, action) VALUES (?, 'now', 'mallory', 'search') ON CONFLICT (id) DO UPDATE SET actor = excluded.actor";
      expect(() => db.prepare(upsert).run(entry.id)).toThrow(/append-only/);
      expect(db.prepare('SELECT actor, withheld FROM audit_log').all()).toEqual([{ actor: 'alice', withheld: 1 }]);
    } finally {
      db.close();
    }
  });
});
