import { describe, expect, it } from 'vitest';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Users' active flag and the directory (SCIM users and groups) of the principal port. */
export function describeDirectoryStore(suite: ConformanceSuite): void {
  describe('active users', () => {
    it("stops an inactive user's keys at once and restores them on reactivation", async () => {
      const store = suite.store;
      const zoe = await store.upsertUser({ name: 'zoe', groups: ['legal'] });
      expect(zoe.active).toBe(true);
      const { key } = await store.createApiKey('zoe');
      expect((await store.setUserActive('zoe', false))?.active).toBe(false);
      expect(await store.principalForApiKey(key)).toBeUndefined();
      expect((await store.getUser('zoe'))?.active).toBe(false);
      // An upsert (a new group list) leaves the flag as it is.
      expect((await store.upsertUser({ name: 'zoe', groups: ['hr'] })).active).toBe(false);
      expect(await store.principalForApiKey(key)).toBeUndefined();
      await store.setUserActive('zoe', true);
      expect(await store.principalForApiKey(key)).toEqual({ id: 'zoe', groups: ['hr'], roles: ['member'] });
      expect(await store.setUserActive('nobody', false)).toBeUndefined();
    });
  });

  describe('directory users', () => {
    it('creates users with stable ids, finds them by name (any case) and external id, and refuses a taken name', async () => {
      const store = suite.store;
      const bjensen = await store.createDirectoryUser({ name: 'bjensen', externalId: 'ext-1', active: true });
      expect(bjensen).toMatchObject({ name: 'bjensen', externalId: 'ext-1', active: true, groups: [] });
      expect(bjensen.id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await store.getUser('bjensen'))?.roles).toEqual(['member']);
      expect(await store.getDirectoryUser(bjensen.id)).toEqual(bjensen);
      expect((await store.findDirectoryUsers({ name: 'BJensen' })).map((u) => u.id)).toEqual([bjensen.id]);
      expect((await store.findDirectoryUsers({ externalId: 'ext-1' })).map((u) => u.id)).toEqual([bjensen.id]);
      expect(await store.findDirectoryUsers({ externalId: 'EXT-1' })).toEqual([]);
      // Users added another way are in the directory too.
      await store.upsertUser({ name: 'adam', groups: ['ops'] });
      const all = await store.findDirectoryUsers({});
      expect(all.map((u) => u.name)).toEqual(['adam', 'bjensen']);
      expect(all[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
      await expectRejects(store.createDirectoryUser({ name: 'adam', active: true }), 'directory_conflict');
      await expectRejects(store.createDirectoryUser({ name: 'evident:local', active: true }), 'invalid_input');
      await expectRejects(
        store.createDirectoryUser({ name: 'x', externalId: 'e'.repeat(257), active: true }),
        'invalid_input',
      );
    });

    it('updates the external id and the active flag; a deleted user leaves the directory keyless and inactive', async () => {
      const store = suite.store;
      const user = await store.createDirectoryUser({ name: 'bjensen', active: true });
      const { key } = await store.createApiKey('bjensen');
      const patched = await store.updateDirectoryUser(user.id, { externalId: 'e2', active: false });
      expect(patched).toMatchObject({ id: user.id, externalId: 'e2', active: false });
      expect(await store.principalForApiKey(key)).toBeUndefined();
      expect(
        (await store.updateDirectoryUser(user.id, { externalId: null, active: true }))?.externalId,
      ).toBeUndefined();
      expect((await store.principalForApiKey(key))?.id).toBe('bjensen');
      expect(await store.updateDirectoryUser('no-such-id', { active: false })).toBeUndefined();

      const group = await store.createDirectoryGroup({ displayName: 'legal', members: [user.id] });
      expect((await store.getUser('bjensen'))?.groups).toEqual(['legal']);
      const deleted = await store.deleteDirectoryUser(user.id);
      expect(deleted?.name).toBe('bjensen');
      expect(await store.getDirectoryUser(user.id)).toBeUndefined();
      expect(await store.deleteDirectoryUser(user.id)).toBeUndefined();
      expect(await store.principalForApiKey(key)).toBeUndefined();
      expect(await store.listApiKeys('bjensen')).toEqual([]);
      expect(await store.getUser('bjensen')).toMatchObject({ active: false, groups: [] });
      expect((await store.getDirectoryGroup(group.id))?.members).toEqual([]);
      expect(await store.findDirectoryUsers({ name: 'bjensen' })).toEqual([]);
      // Created again: the same row under a new id, in no group.
      const again = await store.createDirectoryUser({ name: 'bjensen', active: true });
      expect(again.id).not.toBe(user.id);
      expect(again.groups).toEqual([]);
    });
  });

  describe('directory groups', () => {
    it("keeps members as users' group names: create, add, remove, rename, delete", async () => {
      const store = suite.store;
      const a = await store.createDirectoryUser({ name: 'ann', active: true });
      const b = await store.createDirectoryUser({ name: 'ben', active: true });
      // A holder of the name who is not listed leaves the group when the directory creates it.
      await store.upsertUser({ name: 'cy', groups: ['legal', 'ops'] });
      const legal = await store.createDirectoryGroup({ displayName: 'legal', externalId: 'g-1', members: [a.id] });
      expect(legal.members).toEqual([{ id: a.id, name: 'ann' }]);
      expect((await store.getUser('cy'))?.groups).toEqual(['ops']);
      expect((await store.getUser('ann'))?.groups).toEqual(['legal']);
      await expectRejects(store.createDirectoryGroup({ displayName: 'legal', members: [] }), 'directory_conflict');
      await expectRejects(store.createDirectoryGroup({ displayName: 'Sales Team', members: [] }), 'invalid_input');
      await expectRejects(store.createDirectoryGroup({ displayName: 'x', members: ['nobody'] }), 'invalid_input');
      expect((await store.findDirectoryGroups({ displayName: 'x' })).length).toBe(0);

      const { key } = await store.createApiKey('ben');
      await store.updateDirectoryGroup(legal.id, { add: [b.id] });
      expect((await store.principalForApiKey(key))?.groups).toEqual(['legal']);
      await store.updateDirectoryGroup(legal.id, { remove: [b.id, 'not-a-member'] });
      expect((await store.principalForApiKey(key))?.groups).toEqual([]);
      await expectRejects(store.updateDirectoryGroup(legal.id, { add: ['nobody'] }), 'invalid_input');

      const renamed = await store.updateDirectoryGroup(legal.id, { displayName: 'counsel', externalId: null });
      expect(renamed).toMatchObject({ displayName: 'counsel', members: [{ id: a.id, name: 'ann' }] });
      expect(renamed?.externalId).toBeUndefined();
      expect((await store.getUser('ann'))?.groups).toEqual(['counsel']);
      const other = await store.createDirectoryGroup({ displayName: 'ops', members: [] });
      await expectRejects(store.updateDirectoryGroup(other.id, { displayName: 'counsel' }), 'directory_conflict');
      expect((await store.findDirectoryGroups({ displayName: 'COUNSEL' })).map((g) => g.id)).toEqual([legal.id]);
      expect((await store.findDirectoryGroups({ externalId: 'g-1' })).length).toBe(0);
      expect((await store.findDirectoryGroups({ members: false })).map((g) => [g.displayName, g.members])).toEqual([
        ['counsel', []],
        ['ops', []],
      ]);
      expect((await store.getDirectoryGroup(legal.id, { members: false }))?.members).toEqual([]);
      await store.updateDirectoryGroup(other.id, { add: [b.id, a.id] });
      expect((await store.findDirectoryGroups({})).map((g) => [g.displayName, g.members.map((m) => m.name)])).toEqual([
        ['counsel', ['ann']],
        ['ops', ['ann', 'ben']],
      ]);

      expect((await store.deleteDirectoryGroup(legal.id))?.displayName).toBe('counsel');
      expect(await store.getDirectoryGroup(legal.id)).toBeUndefined();
      expect(await store.deleteDirectoryGroup(legal.id)).toBeUndefined();
      expect((await store.getUser('ann'))?.groups).toEqual(['ops']);
      expect(await store.updateDirectoryGroup(legal.id, { add: [a.id] })).toBeUndefined();
    });
  });
}
