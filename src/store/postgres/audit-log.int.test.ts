import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import type { Store } from '../store.ts';
import { openPostgresStore } from './store.ts';

describeWithPostgres('postgres audit log: append-only in the database', (url) => {
  const schema = freshSchema('evident_audit');
  let store: Store;
  let client: pg.Client;
  beforeAll(async () => {
    store = await openPostgresStore(url, { schema });
    // The store's own role (the owner of the table), on a connection of its own: privileges alone would not stop it.
    client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`SET search_path = "${schema}"`);
  });
  afterAll(async () => {
    await client?.end();
    await store?.close();
    await dropSchemas(url, [schema]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE, even by the owner, leaving every entry as written', async () => {
    const entry = await store.appendAudit({
      actor: 'alice',
      action: 'search',
      questionSha256: 'b'.repeat(64),
      withheld: 1,
    });
    const refused = async (sql: string, params: unknown[] = []) => {
      const error = await client.query(sql, params).then(
        () => undefined,
        (caught: unknown) => caught as { message: string; code: string },
      );
      expect(error?.message, sql).toMatch(/append-only/);
      expect(error?.code).toBe('42501');
    };
    await refused("UPDATE audit_log SET actor = 'mallory'");
    await refused('UPDATE audit_log SET withheld = 0 WHERE id = $1', [entry.id]);
    await refused('DELETE FROM audit_log');
    await refused('DELETE FROM audit_log WHERE id = $1', [entry.id]);
    await refused('TRUNCATE audit_log');
    const rows = (await client.query('SELECT id, actor, withheld FROM audit_log')).rows;
    expect(rows).toEqual([{ id: String(entry.id), actor: 'alice', withheld: 1 }]);
    expect(await store.listAudit({ limit: 10 })).toEqual([entry]);
  });

  it('chains appends made at once from many clients in order, and shows an entry changed past the trigger', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.appendAudit({
          actor: `user${i}`,
          action: 'search',
          questionSha256: 'c'.repeat(64),
          returnedDocIds: ['a.md'],
        }),
      ),
    );
    const intact = await store.verifyAudit();
    expect(intact.broken).toBeUndefined();
    expect(intact.entries).toBeGreaterThanOrEqual(20);
    const [target] = await store.listAudit({ limit: 1, actor: 'user7' });
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change');
    await client.query("UPDATE audit_log SET actor = 'mallory' WHERE id = $1", [target?.id]);
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change');
    expect((await store.verifyAudit()).broken).toMatchObject({ id: target?.id });
  });
});
