import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_AUDIT_PAGE, type AuditEntryWrite, type Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const SHA = 'a'.repeat(64);

/** The append-only audit log: appends, filters, keyset paging newest first, bounds, and no way to change an entry. */
export function describeAuditLog(suite: ConformanceSuite): void {
  describe('audit log', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('appends entries with monotonic ids and the store clock, and reads every field back as written', async () => {
      const before = Date.now();
      const full: AuditEntryWrite = {
        actor: 'alice',
        action: 'ask',
        surface: 'langgraph',
        questionSha256: SHA,
        runId: 'run-1',
        threadId: 'thread-1',
        returnedDocIds: ['policies/expenses.md', 'api/orders-api.md'],
        citedDocIds: ['policies/expenses.md'],
        withheld: 2,
        outcome: 'answered',
      };
      const first = await store.appendAudit(full);
      const second = await store.appendAudit({
        actor: 'evident:admin-key',
        action: 'approval',
        decision: 'edit',
        target: 'save_memory',
        question: 'a question',
      });
      const third = await store.appendAudit({
        actor: 'evident:local',
        action: 'key.revoke',
        target: 'key-1',
        returnedDocIds: [],
        withheld: 0,
      });
      expect(second.id).toBeGreaterThan(first.id);
      expect(third.id).toBeGreaterThan(second.id);
      expect(Date.parse(first.at)).toBeGreaterThanOrEqual(before - 5_000);
      expect(Date.parse(first.at)).toBeLessThanOrEqual(Date.now() + 5_000);
      expect(first).toEqual({ ...full, id: first.id, at: first.at });
      expect(second).toEqual({
        actor: 'evident:admin-key',
        action: 'approval',
        decision: 'edit',
        target: 'save_memory',
        question: 'a question',
        id: second.id,
        at: second.at,
      });
      // Empty lists and a zero count are kept as such, not dropped.
      expect(third).toMatchObject({ returnedDocIds: [], withheld: 0 });
      expect(await store.listAudit({ limit: 10 })).toEqual([third, second, first]);
    });

    it('filters by actor, action, run id and time, and pages by id newest first', async () => {
      for (let i = 0; i < 7; i++) {
        await store.appendAudit({
          actor: i % 2 ? 'bob' : 'alice',
          action: i % 3 ? 'search' : 'ask',
          ...(i === 4 ? { runId: 'run-4' } : {}),
          target: `n${i}`,
        });
      }
      const all = await store.listAudit({ limit: MAX_AUDIT_PAGE });
      expect(all.map((e) => e.target)).toEqual(['n6', 'n5', 'n4', 'n3', 'n2', 'n1', 'n0']);
      expect((await store.listAudit({ limit: 10, actor: 'bob' })).map((e) => e.target)).toEqual(['n5', 'n3', 'n1']);
      expect((await store.listAudit({ limit: 10, action: 'ask' })).map((e) => e.target)).toEqual(['n6', 'n3', 'n0']);
      expect((await store.listAudit({ limit: 10, actor: 'alice', action: 'search' })).map((e) => e.target)).toEqual([
        'n4',
        'n2',
      ]);
      expect((await store.listAudit({ limit: 10, runId: 'run-4' })).map((e) => e.target)).toEqual(['n4']);
      expect(await store.listAudit({ limit: 10, actor: 'nobody' })).toEqual([]);

      const page1 = await store.listAudit({ limit: 3 });
      const page2 = await store.listAudit({ limit: 3, beforeId: page1.at(-1)!.id });
      const page3 = await store.listAudit({ limit: 3, beforeId: page2.at(-1)!.id });
      expect([...page1, ...page2, ...page3]).toEqual(all);
      expect(page3).toHaveLength(1);

      const at = all.map((e) => e.at);
      expect(await store.listAudit({ limit: 10, since: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
      expect(await store.listAudit({ limit: 10, until: '2000-01-01' })).toEqual([]);
      const oldest = all.at(-1)!;
      const inclusive = await store.listAudit({ limit: 10, since: oldest.at, until: oldest.at });
      expect(inclusive.map((e) => e.id)).toContain(oldest.id);
      expect(inclusive.every((e) => e.at === oldest.at)).toBe(true);
      expect(await store.listAudit({ limit: 10, since: at.at(-1)!, until: at[0]! })).toEqual(all);
    });

    it('refuses malformed entries and unbounded or malformed reads, writing nothing', async () => {
      const bad: AuditEntryWrite[] = [
        { actor: '', action: 'search' },
        { actor: 'x'.repeat(513), action: 'search' },
        { actor: 'alice', action: 'drop' as 'search' },
        { actor: 'alice', action: 'search', surface: 'fax' as 'http' },
        { actor: 'alice', action: 'search', questionSha256: 'not-a-hash' },
        { actor: 'alice', action: 'search', question: 'q'.repeat(100_001) },
        { actor: 'alice', action: 'search', returnedDocIds: Array.from({ length: 1001 }, (_, i) => `d${i}`) },
        { actor: 'alice', action: 'search', citedDocIds: [''] },
        { actor: 'alice', action: 'search', withheld: -1 },
        { actor: 'alice', action: 'search', withheld: 1.5 },
        { actor: 'alice', action: 'approval', decision: 'maybe' as 'approve' },
      ];
      for (const entry of bad) await expectRejects(store.appendAudit(entry), 'invalid_input');
      for (const limit of [0, -1, MAX_AUDIT_PAGE + 1, 1.5])
        await expectRejects(store.listAudit({ limit }), 'invalid_input');
      await expectRejects(store.listAudit({ limit: 10, beforeId: 0 }), 'invalid_input');
      await expectRejects(store.listAudit({ limit: 10, since: 'yesterday-ish' }), 'invalid_input');
      await expectRejects(store.listAudit({ limit: 10, action: 'drop' as 'search' }), 'invalid_input');
      expect(await store.listAudit({ limit: 10 })).toEqual([]);
    });

    it('has no way to change or remove an entry through the port, and keeps entries across close and reopen', async () => {
      const written = await store.appendAudit({ actor: 'alice', action: 'document.delete', target: 'contracts/x.md' });
      const port = store as unknown as Record<string, unknown>;
      for (const name of Object.keys(port)) {
        // Append, read, and verify the chain: nothing that changes or removes an entry.
        if (/audit/i.test(name)) expect(['appendAudit', 'listAudit', 'verifyAudit']).toContain(name);
      }
      const reopened = await suite.reopen();
      expect(await reopened.listAudit({ limit: 10 })).toEqual([written]);
      const next = await reopened.appendAudit({ actor: 'bob', action: 'search' });
      expect(next.id).toBeGreaterThan(written.id);
    });
  });
}
