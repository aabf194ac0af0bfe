import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Users and API keys (the principal port). */
export function describePrincipalStore(suite: ConformanceSuite): void {
  describe('users', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('creates, updates and lists users', async () => {
      const created = await store.upsertUser({ name: 'zoe', groups: ['legal'] });
      expect(created).toMatchObject({ name: 'zoe', groups: ['legal'], roles: ['member'] });
      expect(Number.isNaN(Date.parse(created.createdAt))).toBe(false);
      await store.upsertUser({ name: 'adam', groups: [], roles: ['admin'] });

      const updated = await store.upsertUser({ name: 'zoe', groups: ['legal', 'hr'] });
      expect(updated).toEqual({ ...created, groups: ['legal', 'hr'] });
      expect(await store.getUser('zoe')).toEqual(updated);
      expect((await store.upsertUser({ name: 'zoe', groups: ['hr'], roles: ['admin', 'member'] })).roles).toEqual([
        'admin',
        'member',
      ]);
      expect((await store.upsertUser({ name: 'adam', groups: ['ops'] })).roles).toEqual(['admin']);
      expect(await store.getUser('nobody')).toBeUndefined();
      expect((await store.listUsers()).map((user) => user.name)).toEqual(['adam', 'zoe']);
      expect((await store.stats()).users).toBe(2);
    });
  });

  describe('reserved identities', () => {
    it('refuses a user named as a principal that is no stored user (a colon), or as the operator ids of before', async () => {
      for (const name of [
        'evident:local',
        'evident:admin-key',
        'groups:legal',
        'local',
        'admin-key',
        '',
        'a b',
        'x'.repeat(129),
      ]) {
        await expectRejects(suite.store.upsertUser({ name, groups: [] }), 'invalid_input');
      }
      await expectRejects(suite.store.upsertUser({ name: 'zoe', groups: ['legal:ops'] }), 'invalid_input');
      expect(await suite.store.listUsers()).toEqual([]);
    });
  });

  describe('api keys', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it("creates keys shown once, maps them to the user's current principal, lists and revokes them", async () => {
      await store.upsertUser({ name: 'zoe', groups: ['legal'] });
      await store.upsertUser({ name: 'yan', groups: ['hr'] });
      const first = await store.createApiKey('zoe');
      const second = await store.createApiKey('zoe');
      const yans = await store.createApiKey('yan');
      expect(first.key).not.toBe(second.key);
      expect(first.key.length).toBeGreaterThanOrEqual(32);
      expect(await store.principalForApiKey(first.key)).toEqual({ id: 'zoe', groups: ['legal'], roles: ['member'] });
      expect((await store.principalForApiKey(yans.key))?.id).toBe('yan');
      expect(await store.principalForApiKey('evk_not-a-key')).toBeUndefined();
      expect(await store.principalForApiKey('')).toBeUndefined();

      await store.upsertUser({ name: 'zoe', groups: ['hr'], roles: ['admin'] });
      expect(await store.principalForApiKey(second.key)).toEqual({ id: 'zoe', groups: ['hr'], roles: ['admin'] });

      const listed = await store.listApiKeys('zoe');
      expect(listed.map((k) => k.id)).toEqual([first.id, second.id]);
      expect(listed[0]).toMatchObject({ id: first.id, user: 'zoe' });
      expect(JSON.stringify(listed)).not.toContain(first.key);
      expect(await store.listApiKeys('nobody')).toEqual([]);

      expect(await store.revokeApiKey(first.id)).toBe(true);
      expect(await store.revokeApiKey(first.id)).toBe(false);
      expect(await store.principalForApiKey(first.key)).toBeUndefined();
      expect((await store.principalForApiKey(second.key))?.id).toBe('zoe');
      expect((await store.listApiKeys('zoe')).map((k) => k.id)).toEqual([second.id]);
      await expectRejects(store.createApiKey('nobody'), 'not_found');
    });

    it('keeps keys across close and reopen', async () => {
      await store.upsertUser({ name: 'zoe', groups: ['legal'] });
      const { key } = await store.createApiKey('zoe');
      store = await suite.reopen();
      expect((await store.principalForApiKey(key))?.id).toBe('zoe');
    });
  });
}
