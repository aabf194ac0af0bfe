import type { ChildProcess } from 'node:child_process';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withSchema } from '../../../store/postgres/drop-store.ts';
import { openPostgresStore } from '../../../store/postgres/store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../../testing/postgres-test-database.ts';
import { startServeProcess } from '../../../testing/serve-process.ts';

// The Store API on two `evident serve` processes sharing one PostgreSQL store, with the official SDK: an item put
// through one server is read, searched and listed through the other by its owner only; an ACL set through one
// server decides the next read through the other.
describeWithPostgres('the Store API on two servers sharing PostgreSQL', (url) => {
  const schema = freshSchema('evident_store_api');
  const databaseUrl = withSchema(url, schema);
  const servers: ChildProcess[] = [];
  const keys = { alice: '', bob: '' };
  let urls: string[] = [];

  beforeAll(async () => {
    const store = await openPostgresStore(databaseUrl);
    await store.upsertUser({ name: 'alice', groups: ['legal'] });
    await store.upsertUser({ name: 'bob', groups: ['legal'] });
    keys.alice = (await store.createApiKey('alice')).key;
    keys.bob = (await store.createApiKey('bob')).key;
    await store.close();
    const env = { ...process.env, EVIDENT_ADMIN_KEY: 'store-api-pg-admin-key-0123456789' };
    const started = await Promise.all([
      startServeProcess(['--database-url', databaseUrl], env),
      startServeProcess(['--database-url', databaseUrl], env),
    ]);
    servers.push(...started.map((s) => s.child));
    urls = started.map((s) => s.url);
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(
      servers.map(
        (server) => new Promise((done) => (server.exitCode === null ? server.once('exit', done) : done(null))),
      ),
    );
    await dropSchemas(url, [schema]);
  });

  const client = (server: number, apiKey: string) =>
    new Client({ apiUrl: urls[server] as string, apiKey, callerOptions: { maxRetries: 0 } });

  it('serves one store through both, isolated per user', async () => {
    const [aliceOnFirst, aliceOnSecond, bobOnSecond] = [
      client(0, keys.alice),
      client(1, keys.alice),
      client(1, keys.bob),
    ];
    const ns = ['users', 'alice', 'notes'];
    await aliceOnFirst.store.putItem(ns, 'billing', { text: 'Invoices go to cost centre QX-7731' });
    expect((await aliceOnSecond.store.getItem(ns, 'billing'))?.value).toEqual({
      text: 'Invoices go to cost centre QX-7731',
    });
    const found = await aliceOnSecond.store.searchItems(['users', 'alice'], { query: 'QX-7731' });
    expect(found.items.map((item) => item.key)).toEqual(['billing']);
    expect(found.items[0]?.score).toBe(1);
    expect((await aliceOnSecond.store.listNamespaces()).namespaces).toEqual([ns]);

    expect(await bobOnSecond.store.getItem(ns, 'billing')).toBeNull();
    expect((await bobOnSecond.store.searchItems([], { query: 'QX-7731' })).items).toEqual([]);
    expect((await bobOnSecond.store.listNamespaces()).namespaces).toEqual([]);
    await bobOnSecond.store.deleteItem(ns, 'billing');
    expect(await aliceOnFirst.store.getItem(ns, 'billing')).not.toBeNull();

    // A shared namespace: the ACL set through the first server decides bob's next read through the second.
    await aliceOnFirst.store.putItem(['legal-faq'], 'q1', { q: 'Who signs NDAs?' });
    expect(await bobOnSecond.store.getItem(['legal-faq'], 'q1')).toBeNull();
    const setAcl = async (read: string[]) =>
      (
        await fetch(`${urls[0]}/v1/store/namespaces/legal-faq/acl`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${keys.alice}`, 'content-type': 'application/json' },
          body: JSON.stringify({ read }),
        })
      ).status;
    expect(await setAcl(['group:legal'])).toBe(200);
    expect((await bobOnSecond.store.getItem(['legal-faq'], 'q1'))?.value).toEqual({ q: 'Who signs NDAs?' });
    expect(await setAcl([])).toBe(200);
    expect(await bobOnSecond.store.getItem(['legal-faq'], 'q1')).toBeNull();
  });
});
