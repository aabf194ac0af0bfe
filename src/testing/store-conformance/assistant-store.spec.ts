import { beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_ASSISTANT_VERSIONS,
  mayReadAssistant,
  type AssistantReader,
  type AssistantWrite,
  type Store,
} from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const write = (over: Partial<AssistantWrite> = {}): AssistantWrite => ({
  graphId: 'rag',
  name: 'Contracts',
  description: 'answers about contracts',
  config: { configurable: { retrieval: { topK: 3 } } },
  context: {},
  metadata: { team: 'legal', tier: 2, pinned: true },
  acl: [],
  ...over,
});

const ALICE: AssistantReader = { user: 'alice', keys: ['user:alice', 'group:legal'] };
const BOB: AssistantReader = { user: 'bob', keys: ['user:bob', 'group:sales'] };
const ADMIN: AssistantReader = { user: 'root', keys: undefined };
const ids = (list: { assistantId: string }[]) => list.map((item) => item.assistantId);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Stored assistants and their versions (the assistant port): versions, latest, search with the read rule in SQL. */
export function describeAssistantStore(suite: ConformanceSuite): void {
  describe('assistants', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('creates version 1, refuses a taken id, and reads it back whole', async () => {
      const created = await store.createAssistant({ ...write(), assistantId: id(1), owner: 'alice' });
      expect(created).toMatchObject({
        assistantId: id(1),
        owner: 'alice',
        version: 1,
        graphId: 'rag',
        name: 'Contracts',
        description: 'answers about contracts',
        config: { configurable: { retrieval: { topK: 3 } } },
        metadata: { team: 'legal', tier: 2, pinned: true },
        acl: [],
      });
      expect(await store.createAssistant({ ...write({ name: 'other' }), assistantId: id(1), owner: 'bob' })).toBe(
        undefined,
      );
      expect((await store.getAssistant(id(1)))?.name).toBe('Contracts');
      expect(await store.getAssistant(id(2))).toBe(undefined);
      expect(await store.countOwnedAssistants('alice')).toBe(1);
      expect(await store.countOwnedAssistants('bob')).toBe(0);
    });

    it('adds versions, lists them newest first, sets an older one latest, and deletes them all', async () => {
      await store.createAssistant({ ...write(), assistantId: id(1), owner: 'alice' });
      const v2 = await store.addAssistantVersion(id(1), write({ name: 'Contracts v2', metadata: { team: 'ops' } }));
      expect(v2).toMatchObject({ version: 2, name: 'Contracts v2', owner: 'alice', metadata: { team: 'ops' } });
      const versions = await store.listAssistantVersions(id(1), { limit: 10, offset: 0 });
      expect(versions.map((version) => [version.version, version.name])).toEqual([
        [2, 'Contracts v2'],
        [1, 'Contracts'],
      ]);
      expect(
        (await store.listAssistantVersions(id(1), { limit: 10, offset: 0, metadata: [['team', 'legal']] })).map(
          (version) => version.version,
        ),
      ).toEqual([1]);
      expect((await store.listAssistantVersions(id(1), { limit: 1, offset: 1 })).map((v) => v.version)).toEqual([1]);
      expect((await store.getAssistantVersion(id(1), 1))?.name).toBe('Contracts');
      expect(await store.getAssistantVersion(id(1), 3)).toBe(undefined);

      const back = await store.setLatestAssistantVersion(id(1), 1);
      expect(back).toMatchObject({ version: 1, name: 'Contracts', metadata: { team: 'legal' } });
      expect((await store.getAssistant(id(1)))?.version).toBe(1);
      expect(await store.setLatestAssistantVersion(id(1), 9)).toBe(undefined);
      expect(await store.setLatestAssistantVersion(id(2), 1)).toBe(undefined);
      // The next update numbers after the highest version, whichever is latest.
      expect((await store.addAssistantVersion(id(1), write()))?.version).toBe(3);
      expect(await store.addAssistantVersion(id(2), write())).toBe(undefined);

      expect(await store.deleteAssistant(id(1))).toBe(true);
      expect(await store.deleteAssistant(id(1))).toBe(false);
      expect(await store.getAssistant(id(1))).toBe(undefined);
      expect(await store.getAssistantVersion(id(1), 1)).toBe(undefined);
      expect(await store.listAssistantVersions(id(1), { limit: 10, offset: 0 })).toEqual([]);
    });

    it(`keeps at most ${MAX_ASSISTANT_VERSIONS} versions, dropping the oldest`, async () => {
      await store.createAssistant({ ...write(), assistantId: id(1), owner: 'alice' });
      for (let n = 2; n <= MAX_ASSISTANT_VERSIONS + 2; n++) await store.addAssistantVersion(id(1), write());
      const kept = await store.listAssistantVersions(id(1), { limit: 1000, offset: 0 });
      expect(kept).toHaveLength(MAX_ASSISTANT_VERSIONS);
      expect(kept[0]?.version).toBe(MAX_ASSISTANT_VERSIONS + 2);
      expect(kept.at(-1)?.version).toBe(3);
      expect(await store.getAssistantVersion(id(1), 1)).toBe(undefined);
    });

    it('searches and counts only what the reader may read, before the limit', async () => {
      await store.createAssistant({ ...write({ name: 'a-private' }), assistantId: id(1), owner: 'alice' });
      await store.createAssistant({
        ...write({ name: 'a-legal', acl: ['group:legal'] }),
        assistantId: id(2),
        owner: 'carol',
      });
      await store.createAssistant({
        ...write({ name: 'a-public', acl: ['public'] }),
        assistantId: id(3),
        owner: 'carol',
      });
      await store.createAssistant({
        ...write({ name: 'a-bob', acl: ['user:bob'], graphId: 'react' }),
        assistantId: id(4),
        owner: 'carol',
      });
      const page = { limit: 10, offset: 0, sortBy: 'name' as const, sortOrder: 'asc' as const };

      expect(ids(await store.searchAssistants(ALICE, page))).toEqual([id(2), id(1), id(3)]);
      expect(ids(await store.searchAssistants(BOB, page))).toEqual([id(4), id(3)]);
      expect(ids(await store.searchAssistants(ADMIN, page))).toEqual([id(4), id(2), id(1), id(3)]);
      expect(await store.countAssistants(ALICE, {})).toBe(3);
      expect(await store.countAssistants(BOB, {})).toBe(2);
      expect(await store.countAssistants(ADMIN, {})).toBe(4);
      // Filters: graph, exact name, metadata of each JSON type; a page of one.
      expect(ids(await store.searchAssistants(ADMIN, { ...page, graphId: 'react' }))).toEqual([id(4)]);
      expect(ids(await store.searchAssistants(ALICE, { ...page, name: 'a-public' }))).toEqual([id(3)]);
      expect(ids(await store.searchAssistants(BOB, { ...page, name: 'a-private' }))).toEqual([]);
      expect(await store.countAssistants(BOB, { name: 'a-private' })).toBe(0);
      for (const filter of [
        ['team', 'legal'],
        ['tier', 2],
        ['pinned', true],
      ] as const)
        expect(await store.countAssistants(ADMIN, { metadata: [filter] })).toBe(4);
      for (const filter of [
        ['team', 'ops'],
        ['tier', '2'],
        ['pinned', false],
        ['absent', 'x'],
      ] as const)
        expect(await store.countAssistants(ADMIN, { metadata: [filter] })).toBe(0);
      expect(ids(await store.searchAssistants(ALICE, { ...page, limit: 1, offset: 1 }))).toEqual([id(1)]);
      expect(ids(await store.searchAssistants(ALICE, { ...page, sortOrder: 'desc' }))).toEqual([id(3), id(1), id(2)]);
      // The newest first by default.
      expect(ids(await store.searchAssistants(ADMIN, { limit: 10, offset: 0 }))[0]).toBe(id(4));

      // The same rule for one record, in code.
      const legal = await store.getAssistant(id(2));
      if (!legal) throw new Error('missing');
      expect(mayReadAssistant(legal, ALICE)).toBe(true);
      expect(mayReadAssistant(legal, BOB)).toBe(false);
      expect(mayReadAssistant(legal, ADMIN)).toBe(true);
    });

    it('bounds pages and metadata filters', async () => {
      await expectRejects(store.searchAssistants(ADMIN, { limit: 0, offset: 0 }), 'invalid_input');
      await expectRejects(store.searchAssistants(ADMIN, { limit: 1001, offset: 0 }), 'invalid_input');
      await expectRejects(store.searchAssistants(ADMIN, { limit: 10, offset: -1 }), 'invalid_input');
      await expectRejects(store.listAssistantVersions(id(1), { limit: 5000, offset: 0 }), 'invalid_input');
      await expectRejects(store.countAssistants(ADMIN, { metadata: [["x') OR 1=1 --", 'y']] }), 'invalid_input');
      const nine = Array.from({ length: 9 }, (_, n) => [`k${n}`, 'v'] as const);
      await expectRejects(store.countAssistants(ADMIN, { metadata: nine }), 'invalid_input');
    });
  });
}
