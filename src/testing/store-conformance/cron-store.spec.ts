import { beforeEach, describe, expect, it } from 'vitest';
import type { CronCreate, Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T00:01:00.000Z';
const T2 = '2030-01-01T00:02:00.000Z';

const cron = (cronId: string, owner: string, extra: Partial<CronCreate> = {}): CronCreate => ({
  cronId,
  owner,
  assistantId: 'rag',
  threadId: null,
  schedule: '* * * * *',
  timezone: 'UTC',
  endTime: null,
  enabled: true,
  onRunCompleted: 'keep',
  payload: { input: { question: `question of ${cronId}` } },
  metadata: {},
  nextRunAt: T0,
  ...extra,
});

/** Crons (the cron port): owner-scoped changes, listings and counts, and one claim per tick whatever the claimers. */
export function describeCronStore(suite: ConformanceSuite): void {
  describe('crons', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('records a cron as given and reads it back', async () => {
      const created = await store.createCron(
        cron('c1', 'alice', {
          threadId: 'thread-1',
          endTime: '2031-01-01T00:00:00Z',
          metadata: { team: 'legal', n: 3 },
          onRunCompleted: 'delete',
        }),
        10,
      );
      expect(created).toMatchObject({
        cronId: 'c1',
        owner: 'alice',
        assistantId: 'rag',
        threadId: 'thread-1',
        schedule: '* * * * *',
        timezone: 'UTC',
        endTime: '2031-01-01T00:00:00.000Z',
        enabled: true,
        onRunCompleted: 'delete',
        payload: { input: { question: 'question of c1' } },
        metadata: { team: 'legal', n: 3 },
        nextRunAt: T0,
      });
      expect(Date.parse(created.createdAt)).not.toBeNaN();
      expect(await store.getCron('c1')).toEqual(created);
      expect(await store.getCron('nope')).toBeUndefined();
    });

    it("bounds each owner's crons, and only the owner changes or deletes one", async () => {
      await store.createCron(cron('a1', 'alice'), 2);
      await store.createCron(cron('a2', 'alice'), 2);
      await expectRejects(store.createCron(cron('a3', 'alice'), 2), 'invalid_input');
      await store.createCron(cron('b1', 'bob'), 2);
      await expectRejects(store.createCron(cron('x', 'alice\u202e'), 2), 'invalid_input');

      expect(await store.updateCron('a1', 'bob', { enabled: false })).toBeUndefined();
      expect(await store.deleteCron('a1', 'bob')).toBe(false);
      expect((await store.getCron('a1'))?.enabled).toBe(true);

      const updated = await store.updateCron('a1', 'alice', { enabled: false, schedule: '0 * * * *', endTime: null });
      expect(updated).toMatchObject({ enabled: false, schedule: '0 * * * *', endTime: null, assistantId: 'rag' });
      expect(await store.deleteCron('a1', 'alice')).toBe(true);
      expect(await store.getCron('a1')).toBeUndefined();
      // A deleted cron frees its place under the bound.
      await store.createCron(cron('a3', 'alice'), 2);
    });

    it('lists and counts per owner, filtered, sorted and paged; without an owner, everyone', async () => {
      await store.createCron(cron('a1', 'alice', { metadata: { kind: 'daily', n: 1 } }), 10);
      await store.createCron(cron('a2', 'alice', { threadId: 't-1', metadata: { kind: 'weekly', n: true } }), 10);
      await store.createCron(cron('a3', 'alice', { assistantId: 'react', enabled: false }), 10);
      await store.createCron(cron('b1', 'bob', { metadata: { kind: 'daily' } }), 10);

      const idsOf = async (query: Parameters<Store['listCrons']>[0]) =>
        (await store.listCrons(query)).map((c) => c.cronId);
      expect(await idsOf({ owner: 'alice', sortBy: 'cron_id', sortOrder: 'asc' })).toEqual(['a1', 'a2', 'a3']);
      expect(await idsOf({ owner: 'bob' })).toEqual(['b1']);
      expect(await idsOf({ owner: 'alice', metadata: { kind: 'daily' } })).toEqual(['a1']);
      expect(await idsOf({ owner: 'alice', metadata: { n: 1 } })).toEqual(['a1']);
      // A boolean is not the number 1, nor text.
      expect(await idsOf({ owner: 'alice', metadata: { n: true } })).toEqual(['a2']);
      expect(await idsOf({ owner: 'alice', metadata: { kind: 'hourly' } })).toEqual([]);
      expect(await idsOf({ owner: 'alice', threadId: 't-1' })).toEqual(['a2']);
      expect(await idsOf({ owner: 'alice', assistantId: 'react' })).toEqual(['a3']);
      expect(await idsOf({ owner: 'alice', enabled: false })).toEqual(['a3']);
      expect(await idsOf({ owner: 'alice', sortBy: 'cron_id', sortOrder: 'desc', limit: 2, offset: 1 })).toEqual([
        'a2',
        'a1',
      ]);
      expect(await idsOf({ sortBy: 'cron_id', sortOrder: 'asc' })).toEqual(['a1', 'a2', 'a3', 'b1']);
      expect(await store.countCrons({ owner: 'alice' })).toBe(3);
      expect(await store.countCrons({ owner: 'alice', metadata: { kind: 'daily' } })).toBe(1);
      expect(await store.countCrons({ metadata: { kind: 'daily' } })).toBe(2);
      expect(await store.countCrons({ owner: 'carol' })).toBe(0);
      await expectRejects(store.listCrons({ owner: 'alice', limit: 0 }), 'invalid_input');
      await expectRejects(store.listCrons({ owner: 'alice', limit: 1001 }), 'invalid_input');
      await expectRejects(store.listCrons({ owner: 'alice', metadata: { "k'); --": 'x' } }), 'invalid_input');
    });

    it('gives a due tick to exactly one of several claimers, and moves the cron on', async () => {
      await store.createCron(cron('c1', 'alice'), 10);
      await store.createCron(cron('later', 'alice', { nextRunAt: T2 }), 10);
      await store.createCron(cron('off', 'alice', { enabled: false }), 10);
      expect((await store.dueCrons(T1, 10)).map((c) => c.cronId)).toEqual(['c1']);

      const claims = await Promise.all(
        ['p1', 'p2', 'p3', 'p4'].map((claimedBy) =>
          store.claimCronTick({
            cronId: 'c1',
            expectedNextRunAt: T0,
            tickAt: T0,
            nextRunAt: T1,
            claimedBy,
            keepTicks: 100,
          }),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await store.getCron('c1'))?.nextRunAt).toBe(T1);
      const [tick] = await store.listCronTicks('c1', 10);
      expect(tick).toMatchObject({ cronId: 'c1', tickAt: T0, status: 'claimed' });
      expect(['p1', 'p2', 'p3', 'p4']).toContain(tick?.claimedBy);

      await store.settleCronTick('c1', T0, { status: 'started', runId: 'run-1', threadId: 'thread-1' });
      expect((await store.listCronTicks('c1', 10))[0]).toMatchObject({
        status: 'started',
        runId: 'run-1',
        threadId: 'thread-1',
      });
      // A stale claim (the cron has moved on) is refused; a disabled cron is never claimed.
      expect(
        await store.claimCronTick({
          cronId: 'c1',
          expectedNextRunAt: T0,
          tickAt: T0,
          nextRunAt: T1,
          claimedBy: 'p5',
          keepTicks: 100,
        }),
      ).toBe(false);
      expect(
        await store.claimCronTick({
          cronId: 'off',
          expectedNextRunAt: T0,
          tickAt: T0,
          nextRunAt: T1,
          claimedBy: 'p1',
          keepTicks: 100,
        }),
      ).toBe(false);
    });

    it('never runs a tick twice, even when an update sets the schedule back onto it', async () => {
      await store.createCron(cron('c1', 'alice'), 10);
      const claim = { cronId: 'c1', expectedNextRunAt: T0, tickAt: T0, nextRunAt: T1, claimedBy: 'p1', keepTicks: 100 };
      expect(await store.claimCronTick(claim)).toBe(true);
      await store.updateCron('c1', 'alice', { nextRunAt: T0 });
      expect(await store.claimCronTick({ ...claim, claimedBy: 'p2' })).toBe(false);
      // The cron moved on all the same: it is not due again for that tick.
      expect((await store.getCron('c1'))?.nextRunAt).toBe(T1);
      expect(await store.listCronTicks('c1', 10)).toHaveLength(1);
    });

    it('keeps a bounded history, newest first, records skips with their reason, and deletes it with the cron', async () => {
      await store.createCron(cron('c1', 'alice'), 10);
      const minutes = ['00', '01', '02', '03', '04'].map((m) => `2030-01-01T00:${m}:00.000Z`);
      for (const [i, tickAt] of minutes.entries()) {
        const next = minutes[i + 1] ?? null;
        expect(
          await store.claimCronTick({
            cronId: 'c1',
            expectedNextRunAt: tickAt,
            tickAt,
            nextRunAt: next,
            claimedBy: 'p1',
            keepTicks: 3,
          }),
        ).toBe(true);
        await store.settleCronTick('c1', tickAt, { status: 'skipped', reason: `owner_not_found: ${'x'.repeat(5000)}` });
        if (next) await store.updateCron('c1', 'alice', {});
      }
      const ticks = await store.listCronTicks('c1', 10);
      expect(ticks.map((t) => t.tickAt)).toEqual(minutes.slice(2).reverse());
      expect(ticks[0]?.status).toBe('skipped');
      expect(ticks[0]?.reason?.startsWith('owner_not_found: ')).toBe(true);
      expect(ticks[0]?.reason?.length).toBe(1000);
      expect((await store.getCron('c1'))?.nextRunAt).toBeNull();
      expect(await store.dueCrons('2099-01-01T00:00:00.000Z', 10)).toEqual([]);
      await expectRejects(store.listCronTicks('c1', 0), 'invalid_input');

      expect(await store.deleteCron('c1', 'alice')).toBe(true);
      expect(await store.listCronTicks('c1', 10)).toEqual([]);
    });
  });
}
