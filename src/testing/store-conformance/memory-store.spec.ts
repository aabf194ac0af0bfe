import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { cosine, expectRejects, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** A recall by the vector channel alone (no query words). */
const byVector = (vector: Float32Array) => ({ text: '', vector });

/** Long-term memories, scoped to one user inside every query (the memory port). */
export function describeMemoryStore(suite: ConformanceSuite): void {
  describe('memories', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('adds, searches, lists and deletes memories of one user only', async () => {
      const next = random(21);
      const close = unitVector(next);
      const far = unitVector(next);
      const first = await store.addMemory({
        user: 'alice',
        text: ' Alice prefers invoices in EUR ',
        vector: close,
        source: 'thread:t1',
      });
      expect(first.created).toBe(true);
      expect(first.memory).toMatchObject({ user: 'alice', text: 'Alice prefers invoices in EUR', source: 'thread:t1' });
      expect(Number.isNaN(Date.parse(first.memory.createdAt))).toBe(false);
      await store.addMemory({ user: 'alice', text: 'Alice is on leave in May', vector: far });
      // bob's memory is the closest of all to the query, yet never reaches alice.
      const bobs = await store.addMemory({ user: 'bob', text: 'Bob secret project codename', vector: close });

      const hits = await store.searchMemories('alice', byVector(close), 5);
      // A memory neither channel finds (here: a vector pointing away, no query words) is no hit.
      const farFound = cosine(close, far) > 0;
      expect(hits.map((hit) => hit.text)).toEqual([
        'Alice prefers invoices in EUR',
        ...(farFound ? ['Alice is on leave in May'] : []),
      ]);
      expect(hits[0]?.score).toBeCloseTo(1, 5);
      if (farFound) expect(hits[1]?.score).toBeCloseTo(cosine(close, far), 5);
      // Its words find it: both channels count (each memory scores 1 here, by one channel each).
      const both = await store.searchMemories('alice', { text: 'leave in May', vector: close }, 5);
      expect(both.map((hit) => hit.text).sort()).toEqual(['Alice is on leave in May', 'Alice prefers invoices in EUR']);
      for (const hit of both) expect(hit.score).toBeCloseTo(1, 5);
      expect((await store.searchMemories('alice', byVector(close), 1)).map((hit) => hit.id)).toEqual([first.memory.id]);
      expect(await store.searchMemories('alice', byVector(close), 0)).toEqual([]);
      expect((await store.listMemories('alice')).map((memory) => memory.text)).toEqual([
        'Alice prefers invoices in EUR',
        'Alice is on leave in May',
      ]);
      expect((await store.listMemories('bob')).map((memory) => memory.id)).toEqual([bobs.memory.id]);
      expect(await store.listMemories('carol')).toEqual([]);
      expect(await store.searchMemories('carol', byVector(close), 5)).toEqual([]);
      // A memory embedded with another dimension is listed but never matched by its vector.
      await store.addMemory({ user: 'alice', text: 'old embedder', vector: new Float32Array([1, 0]) });
      expect((await store.searchMemories('alice', byVector(close), 5)).map((hit) => hit.text)).not.toContain(
        'old embedder',
      );

      // Deleting needs the owner: alice cannot delete bob's memory, even knowing its id.
      expect(await store.deleteMemory('alice', bobs.memory.id)).toBe(false);
      expect(await store.listMemories('bob')).toHaveLength(1);
      expect(await store.deleteMemory('bob', bobs.memory.id)).toBe(true);
      expect(await store.deleteMemory('bob', bobs.memory.id)).toBe(false);
      expect(await store.listMemories('bob')).toEqual([]);
    });

    it('writes at most once per user and idempotency key', async () => {
      const vector = unitVector(random(22));
      const once = await store.addMemory({ user: 'alice', text: 'first text', vector, idempotencyKey: 'run-1:call-1' });
      const again = await store.addMemory({
        user: 'alice',
        text: 'replayed text',
        vector,
        idempotencyKey: 'run-1:call-1',
      });
      expect(again).toEqual({ memory: once.memory, created: false });
      // The same key of another user is another write, and does not return alice's memory.
      const bobs = await store.addMemory({ user: 'bob', text: 'bob text', vector, idempotencyKey: 'run-1:call-1' });
      expect(bobs.created).toBe(true);
      expect(bobs.memory.text).toBe('bob text');
      await store.addMemory({ user: 'alice', text: 'no key', vector });
      await store.addMemory({ user: 'alice', text: 'no key', vector });
      expect((await store.listMemories('alice')).map((memory) => memory.text)).toEqual([
        'first text',
        'no key',
        'no key',
      ]);
    });

    it('refuses a memory without user, text or vector', async () => {
      const vector = unitVector(random(23));
      await expectRejects(store.addMemory({ user: ' ', text: 'x', vector }), 'invalid_input');
      await expectRejects(store.addMemory({ user: 'alice', text: '  ', vector }), 'invalid_input');
      await expectRejects(store.addMemory({ user: 'alice', text: 'x', vector: new Float32Array(0) }), 'invalid_input');
      expect(await store.listMemories('alice')).toEqual([]);
    });

    it('keeps memories across close and reopen', async () => {
      const vector = unitVector(random(24));
      const saved = await store.addMemory({ user: 'alice', text: 'persistent memory', vector, idempotencyKey: 'k' });
      store = await suite.reopen();
      expect(await store.listMemories('alice')).toEqual([saved.memory]);
      expect((await store.addMemory({ user: 'alice', text: 'again', vector, idempotencyKey: 'k' })).created).toBe(
        false,
      );
    });
  });
}
