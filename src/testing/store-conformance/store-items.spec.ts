import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../domain/index.ts';
import type { ItemSearch, Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ADMIN, ALICE, BOB, CAROL, expectRejects, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const DAVE: Principal = { id: 'dave', groups: ['legal'], roles: ['member'] };

const search = (prefix: string[], more: Partial<ItemSearch> = {}): ItemSearch => ({
  namespacePrefix: prefix,
  limit: 10,
  offset: 0,
  ...more,
});

const keys = (items: { key: string }[]) => items.map((item) => item.key);

/** The Store API's items over the memory store: namespaces, ACLs, search, TTL and the memories they are. */
export function describeStoreItems(suite: ConformanceSuite): void {
  describe('store items', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('puts, gets, replaces and deletes an item of the caller’s own namespace', async () => {
      const ns = ['users', 'alice', 'prefs'];
      expect(await store.putItem(ALICE, { namespace: ns, key: 'theme', value: { color: 'dark', size: 14 } })).toEqual({
        created: true,
      });
      const first = await store.getItem(ALICE, ns, 'theme');
      expect(first).toMatchObject({ namespace: ns, key: 'theme', value: { color: 'dark', size: 14 } });
      expect(first?.createdAt).toBe(first?.updatedAt);
      await sleep(5);
      expect(await store.putItem(ALICE, { namespace: ns, key: 'theme', value: { color: 'light' } })).toEqual({
        created: false,
      });
      const second = await store.getItem(ALICE, ns, 'theme');
      expect(second?.value).toEqual({ color: 'light' });
      expect(second?.createdAt).toBe(first?.createdAt);
      expect(Date.parse(second?.updatedAt ?? '')).toBeGreaterThan(Date.parse(first?.updatedAt ?? ''));
      expect(await store.getItem(ALICE, ns, 'absent')).toBeUndefined();
      expect(await store.deleteItem(ALICE, ns, 'theme')).toBe('deleted');
      expect(await store.deleteItem(ALICE, ns, 'theme')).toBe('absent');
      expect(await store.getItem(ALICE, ns, 'theme')).toBeUndefined();
    });

    it("keeps a user's own namespace theirs alone: no read, search, listing, write or delete by anyone else", async () => {
      const ns = ['users', 'alice', 'secrets'];
      await store.putItem(ALICE, {
        namespace: ns,
        key: 'pin',
        value: { pin: '4471' },
        text: 'pin 4471',
        vector: unitVector(random(1)),
      });
      for (const intruder of [BOB, ADMIN, DAVE]) {
        expect(await store.getItem(intruder, ns, 'pin')).toBeUndefined();
        expect(await store.searchItems(intruder, search(['users', 'alice']))).toEqual([]);
        expect(await store.searchItems(intruder, search([]))).toEqual([]);
        expect(await store.searchItems(intruder, search(['users', '*'], { query: { text: 'pin 4471' } }))).toEqual([]);
        expect(await store.searchItems(intruder, search([], { filter: { pin: '4471' } }))).toEqual([]);
        expect(await store.listNamespaces(intruder, { limit: 100, offset: 0 })).toEqual([]);
        // The same outcome as a key that was never there.
        expect(await store.deleteItem(intruder, ns, 'pin')).toBe('absent');
        expect(await store.deleteItem(intruder, ns, 'never')).toBe('absent');
        await expectRejects(
          store.putItem(intruder, { namespace: ns, key: 'pin', value: { pin: '0000' } }),
          'namespace_forbidden',
        );
        await expectRejects(
          store.putItem(intruder, { namespace: ['users', 'alice'], key: 'x', value: {} }),
          'namespace_forbidden',
        );
      }
      expect((await store.getItem(ALICE, ns, 'pin'))?.value).toEqual({ pin: '4471' });
      expect(await store.listNamespaces(ALICE, { limit: 100, offset: 0 })).toEqual([ns]);
      // A user named like a group, or a group named like a user, crosses nothing.
      const legalUser: Principal = { id: 'legal', groups: ['alice'], roles: ['member'] };
      expect(await store.getItem(legalUser, ns, 'pin')).toBeUndefined();
    });

    it('gives a shared namespace to its first writer, whose ACL decides who else reads and writes, at each use', async () => {
      const ns = ['team', 'faq'];
      await store.putItem(ALICE, { namespace: ns, key: 'q1', value: { q: 'holidays' } });
      // New namespaces are private to their owner.
      expect(await store.getNamespaceAcl(ALICE, 'team')).toMatchObject({
        root: 'team',
        owner: 'alice',
        read: [],
        write: [],
      });
      expect(await store.getNamespaceAcl(DAVE, 'team')).toBeUndefined();
      expect(await store.getNamespaceAcl(DAVE, 'nothing-here')).toBeUndefined();
      expect(await store.getItem(DAVE, ns, 'q1')).toBeUndefined();
      await expectRejects(
        store.putItem(DAVE, { namespace: ['team', 'x'], key: 'k', value: {} }),
        'namespace_forbidden',
      );

      // Readers by group: dave (legal) reads, bob does not; reading is not writing.
      await store.setNamespaceAcl(ALICE, 'team', { read: ['group:legal'], write: [] });
      expect((await store.getItem(DAVE, ns, 'q1'))?.value).toEqual({ q: 'holidays' });
      expect(keys(await store.searchItems(DAVE, search(['team'])))).toEqual(['q1']);
      expect(await store.listNamespaces(DAVE, { limit: 100, offset: 0 })).toEqual([ns]);
      expect(await store.getItem(BOB, ns, 'q1')).toBeUndefined();
      expect(await store.listNamespaces(BOB, { limit: 100, offset: 0 })).toEqual([]);
      await expectRejects(store.putItem(DAVE, { namespace: ns, key: 'q2', value: {} }), 'namespace_forbidden');
      expect(await store.deleteItem(DAVE, ns, 'q1')).toBe('read_only');
      expect(await store.deleteItem(BOB, ns, 'q1')).toBe('absent');
      // Only the owner (or an admin) changes the ACL.
      await expectRejects(
        store.setNamespaceAcl(DAVE, 'team', { read: ['user:dave'], write: ['user:dave'] }),
        'namespace_forbidden',
      );
      await expectRejects(store.setNamespaceAcl(BOB, 'team', { read: [], write: ['user:bob'] }), 'namespace_forbidden');

      // Writers by user: bob writes (and so reads).
      const acl = await store.setNamespaceAcl(ALICE, 'team', { read: ['group:legal'], write: ['user:bob'] });
      expect(acl).toMatchObject({ owner: 'alice', read: ['group:legal'], write: ['user:bob'] });
      await store.putItem(BOB, { namespace: ns, key: 'q2', value: { q: 'parking' } });
      expect(await store.getNamespaceAcl(BOB, 'team')).toMatchObject({ owner: 'alice' });
      expect(keys(await store.searchItems(DAVE, search(['team'])))).toEqual(['q2', 'q1']);
      expect(await store.deleteItem(BOB, ns, 'q1')).toBe('deleted');

      // Revoked at once: the next read decides by the ACL as it is now.
      await store.setNamespaceAcl(ADMIN, 'team', { read: [], write: [] });
      expect(await store.getItem(DAVE, ns, 'q2')).toBeUndefined();
      expect(await store.getItem(BOB, ns, 'q2')).toBeUndefined();
      await expectRejects(store.putItem(BOB, { namespace: ns, key: 'q3', value: {} }), 'namespace_forbidden');
      // Admins read and write every shared namespace; the owner stays the owner.
      expect((await store.getItem(ADMIN, ns, 'q2'))?.value).toEqual({ q: 'parking' });
      expect(await store.getNamespaceAcl(ALICE, 'team')).toMatchObject({ owner: 'alice', read: [], write: [] });
      // "users" is no shared namespace.
      await expectRejects(store.setNamespaceAcl(ALICE, 'users', { read: [], write: [] }), 'invalid_input');
      await expectRejects(store.setNamespaceAcl(ALICE, 'team', { read: ['everyone'], write: [] }), 'invalid_input');
    });

    it('searches by prefix, wildcard, filter and query (keyword + vector), paged', async () => {
      const next = random(7);
      const near = unitVector(next);
      const other = unitVector(next);
      const put = (ns: string[], key: string, value: Record<string, unknown>, text?: string, vector?: Float32Array) =>
        store.putItem(ALICE, {
          namespace: ns,
          key,
          value,
          ...(text === undefined ? {} : { text }),
          ...(vector === undefined ? {} : { vector }),
        });
      await put(['users', 'alice', 'notes'], 'n1', { kind: 'note', n: 1 }, 'Invoices go to cost centre QX-7731', other);
      await sleep(2);
      await put(['users', 'alice', 'notes'], 'n2', { kind: 'note', n: 2 }, 'The badge office opens at nine', near);
      await sleep(2);
      await put(['users', 'alice', 'todo'], 't1', { kind: 'todo', n: 3 }, 'Renew the parking permit', other);
      await sleep(2);
      await put(['users', 'alice', 'raw'], 'r1', { kind: 'raw', n: 4 });

      // Newest first without a query; the prefix narrows, `*` matches one label.
      expect(keys(await store.searchItems(ALICE, search(['users', 'alice'])))).toEqual(['r1', 't1', 'n2', 'n1']);
      expect(keys(await store.searchItems(ALICE, search(['users', 'alice', 'notes'])))).toEqual(['n2', 'n1']);
      expect(keys(await store.searchItems(ALICE, search(['users', '*', 'todo'])))).toEqual(['t1']);
      expect(keys(await store.searchItems(ALICE, search(['users', 'alice'], { limit: 2, offset: 1 })))).toEqual([
        't1',
        'n2',
      ]);
      // Filters on value fields: equality and comparisons.
      expect(keys(await store.searchItems(ALICE, search([], { filter: { kind: 'note' } })))).toEqual(['n2', 'n1']);
      expect(keys(await store.searchItems(ALICE, search([], { filter: { n: { $gte: 2, $lt: 4 } } })))).toEqual([
        't1',
        'n2',
      ]);
      expect(keys(await store.searchItems(ALICE, search([], { filter: { kind: { $ne: 'note' } } })))).toEqual([
        'r1',
        't1',
      ]);
      expect(await store.searchItems(ALICE, search([], { filter: { missing: 1 } }))).toEqual([]);

      // A query ranks the indexed items: words find QX-7731, the vector finds n2; the unindexed item is never a hit.
      const byWords = await store.searchItems(
        ALICE,
        search(['users', 'alice'], { query: { text: 'QX-7731 cost centre' } }),
      );
      expect(keys(byWords)[0]).toBe('n1');
      expect(byWords[0]?.score).toBe(1);
      expect(keys(byWords)).not.toContain('r1');
      const byVector = await store.searchItems(ALICE, search([], { query: { text: 'zzz', vector: near } }));
      expect(keys(byVector)[0]).toBe('n2');
      expect(byVector[0]?.score).toBeCloseTo(1, 5);
      const filtered = await store.searchItems(
        ALICE,
        search([], { query: { text: 'parking permit' }, filter: { kind: 'note' } }),
      );
      expect(keys(filtered)).not.toContain('t1');

      // Namespaces: listed, by prefix, suffix and depth.
      const all = { limit: 100, offset: 0 };
      expect(await store.listNamespaces(ALICE, all)).toEqual([
        ['users', 'alice', 'notes'],
        ['users', 'alice', 'raw'],
        ['users', 'alice', 'todo'],
      ]);
      expect(await store.listNamespaces(ALICE, { ...all, suffix: ['todo'] })).toEqual([['users', 'alice', 'todo']]);
      expect(await store.listNamespaces(ALICE, { ...all, maxDepth: 2 })).toEqual([['users', 'alice']]);
      expect(await store.listNamespaces(ALICE, { ...all, prefix: ['users', 'alice', 'n*'] })).toEqual([]);
      expect(await store.listNamespaces(ALICE, { limit: 1, offset: 1 })).toEqual([['users', 'alice', 'raw']]);
    });

    it('expires items after their TTL, restarts it on a refreshing read, and sweeps them', async () => {
      const ns = ['users', 'alice', 'ttl'];
      // 0.02 minutes: 1.2 s.
      await store.putItem(ALICE, { namespace: ns, key: 'short', value: { a: 1 }, ttlMinutes: 0.02 });
      await store.putItem(ALICE, { namespace: ns, key: 'kept', value: { a: 2 }, ttlMinutes: 0.02 });
      await store.putItem(ALICE, { namespace: ns, key: 'forever', value: { a: 3 } });
      await sleep(700);
      expect(await store.getItem(ALICE, ns, 'kept', { refreshTtl: true })).toBeDefined();
      await sleep(700);
      // 1.4 s after the put, 0.7 s after kept's refresh.
      expect(await store.getItem(ALICE, ns, 'short')).toBeUndefined();
      expect(await store.getItem(ALICE, ns, 'kept')).toBeDefined();
      expect(keys(await store.searchItems(ALICE, search(ns)))).toEqual(['forever', 'kept']);
      expect(await store.deleteItem(ALICE, ns, 'short')).toBe('absent');
      await sleep(700);
      expect(keys(await store.searchItems(ALICE, search(ns)))).toEqual(['forever']);
      // short and kept, both expired; at most `limit` at a time.
      expect(await store.sweepExpiredItems(1)).toBe(1);
      expect(await store.sweepExpiredItems(100)).toBe(1);
      expect(await store.sweepExpiredItems(100)).toBe(0);
      // A put over an expired key creates a new item.
      await store.putItem(ALICE, { namespace: ns, key: 'gone', value: { a: 4 }, ttlMinutes: 0.001 });
      await sleep(200);
      expect(await store.putItem(ALICE, { namespace: ns, key: 'gone', value: { a: 5 } })).toEqual({ created: true });
      expect(await store.sweepExpiredItems(100)).toBe(0);
    });

    it('is the memory store: memories are items of the user’s namespace, and indexed items are recalled as memories', async () => {
      const vector = unitVector(random(9));
      const { memory } = await store.addMemory({
        user: 'alice',
        text: 'I prefer invoices in EUR',
        vector,
        source: 'thread:t1',
      });
      expect(memory).toMatchObject({ namespace: ['users', 'alice', 'memories'], key: memory.id });
      const item = await store.getItem(ALICE, ['users', 'alice', 'memories'], memory.id);
      expect(item?.value).toEqual({ text: 'I prefer invoices in EUR', source: 'thread:t1' });
      expect(await store.getItem(BOB, ['users', 'alice', 'memories'], memory.id)).toBeUndefined();

      await store.putItem(ALICE, {
        namespace: ['users', 'alice', 'notes'],
        key: 'parking',
        value: { note: 'My parking spot is P-204' },
        text: 'My parking spot is P-204',
        vector: unitVector(random(10)),
      });
      await store.putItem(ALICE, { namespace: ['users', 'alice', 'notes'], key: 'plain', value: { a: 1 } });
      // bob's item with alice's words is never hers.
      await store.putItem(BOB, {
        namespace: ['users', 'bob'],
        key: 'parking',
        value: {},
        text: 'My parking spot is P-999',
        vector: unitVector(random(10)),
      });
      const hits = await store.searchMemories(
        'alice',
        { text: 'where is my parking spot', vector: unitVector(random(11)) },
        5,
      );
      expect(hits[0]).toMatchObject({
        text: 'My parking spot is P-204',
        namespace: ['users', 'alice', 'notes'],
        key: 'parking',
      });
      expect(hits.map((hit) => hit.text)).not.toContain('My parking spot is P-999');
      expect((await store.listMemories('alice')).map((entry) => entry.text)).toEqual([
        'I prefer invoices in EUR',
        'My parking spot is P-204',
      ]);
      // Deleting the memory deletes the item.
      expect(await store.deleteMemory('alice', memory.id)).toBe(true);
      expect(await store.getItem(ALICE, ['users', 'alice', 'memories'], memory.id)).toBeUndefined();
    });

    it('refuses namespaces, keys, values, pages and filters out of bounds', async () => {
      const put = (namespace: string[], key = 'k', value: Record<string, unknown> = {}) =>
        store.putItem(ALICE, { namespace, key, value });
      await expectRejects(put([]), 'invalid_input');
      await expectRejects(put(['users']), 'invalid_input');
      await expectRejects(put(['users', 'alice', 'a.b']), 'invalid_input');
      await expectRejects(put(['users', 'alice', '']), 'invalid_input');
      await expectRejects(put(['users', 'alice', 'x\u202e']), 'invalid_input');
      await expectRejects(put(['users', 'alice', '*']), 'invalid_input');
      await expectRejects(put(['users', 'alice', ...Array.from({ length: 9 }, (_, i) => `l${i}`)]), 'invalid_input');
      await expectRejects(put(['users', 'alice', 'x'.repeat(257)]), 'invalid_input');
      await expectRejects(put(['users', 'alice'], ''), 'invalid_input');
      await expectRejects(put(['users', 'alice'], 'k'.repeat(513)), 'invalid_input');
      await expectRejects(put(['users', 'alice'], 'k', { big: 'x'.repeat(70_000) }), 'invalid_input');
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 40; i++) deep = { d: deep };
      await expectRejects(put(['users', 'alice'], 'k', deep), 'invalid_input');
      await expectRejects(put(['users', 'alice'], 'k', [] as unknown as Record<string, unknown>), 'invalid_input');
      await expectRejects(
        store.putItem(ALICE, { namespace: ['users', 'alice'], key: 'k', value: {}, ttlMinutes: -1 }),
        'invalid_input',
      );
      await expectRejects(store.searchItems(ALICE, search([], { limit: 101 })), 'invalid_input');
      await expectRejects(store.searchItems(ALICE, search([], { limit: 0 })), 'invalid_input');
      await expectRejects(store.searchItems(ALICE, search([], { offset: 10_001 })), 'invalid_input');
      await expectRejects(store.searchItems(ALICE, search([], { filter: { a: { $where: 1 } } })), 'invalid_input');
      await expectRejects(store.listNamespaces(ALICE, { limit: 1001, offset: 0 }), 'invalid_input');
      await expectRejects(store.listNamespaces(ALICE, { limit: 10, offset: 0, maxDepth: 0 }), 'invalid_input');
      expect(await store.searchItems(ALICE, search([]))).toEqual([]);
      // A user id may hold a period (user names may); no other label may.
      const ann: Principal = { id: 'ann.lee', groups: [], roles: ['member'] };
      await store.putItem(ann, { namespace: ['users', 'ann.lee', 'prefs'], key: 'k', value: { v: 1 } });
      expect((await store.getItem(ann, ['users', 'ann.lee', 'prefs'], 'k'))?.value).toEqual({ v: 1 });
      await expectRejects(store.putItem(ann, { namespace: ['team.x'], key: 'k', value: {} }), 'invalid_input');
    });

    it('keeps items and namespace ACLs across close and reopen', async () => {
      await store.putItem(ALICE, { namespace: ['shared-space'], key: 'k', value: { v: 1 } });
      await store.setNamespaceAcl(ALICE, 'shared-space', { read: ['user:bob'], write: [] });
      store = await suite.reopen();
      expect((await store.getItem(BOB, ['shared-space'], 'k'))?.value).toEqual({ v: 1 });
      expect(await store.getItem(CAROL, ['shared-space'], 'k')).toBeUndefined();
    });
  });
}
