import { beforeEach, describe, expect, it } from 'vitest';
import type { RunLease, Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const A: RunLease = { owner: 'process-a', ttlMs: 60_000 };
const B: RunLease = { owner: 'process-b', ttlMs: 60_000 };
const release = (lease: RunLease): RunLease => ({ ...lease, ttlMs: 0 });

/** Run leases (the run log port): who executes a running run, how a dead process's run is claimed, and what frees its thread. */
export function describeRunLogLeases(suite: ConformanceSuite): void {
  describe('run leases', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const start = (runId: string, threadId: string, lease: RunLease = A) =>
      store.startRun({ runId, threadId, agent: 'rag', user: 'alice', question: `question of ${runId}`, lease });
    const event = (runId: string, seq: number, name = 'custom') => ({ runId, seq, event: name, data: { seq } });

    it('takes the lease with the run; its owner renews it further, nobody else can', async () => {
      const started = await start('l1', 'leases');
      expect(started.lease?.owner).toBe('process-a');
      const first = Date.parse(started.lease?.expiresAt ?? '');
      expect(first).toBeGreaterThan(Date.parse(started.startedAt));

      expect(await store.renewRunLease('l1', { ...A, ttlMs: 120_000 })).toBe(true);
      expect(Date.parse((await store.getRun('l1'))?.lease?.expiresAt ?? '')).toBeGreaterThan(first);
      expect(await store.renewRunLease('l1', B)).toBe(false);
      expect((await store.getRun('l1'))?.lease?.owner).toBe('process-a');
      expect(await store.renewRunLease('no-such-run', A)).toBe(false);

      // A live lease is not an orphan, and it keeps the thread busy for everyone.
      expect(await store.listOrphanedRuns()).toEqual([]);
      expect(await store.claimOrphanedRun('l1', B)).toBeUndefined();
      await expectRejects(start('l2', 'leases', B), 'thread_busy');
      expect((await store.getRun('l1'))?.attempt).toBe(1);
    });

    it('gives an expired lease to exactly one of several claimers, and shuts the loser out of the run', async () => {
      await start('c1', 'claims');
      await store.appendRunEvents([event('c1', 1, 'metadata'), event('c1', 2)], 'process-a');
      expect(await store.renewRunLease('c1', release(A))).toBe(true);
      expect((await store.listOrphanedRuns()).map((run) => [run.runId, run.status])).toEqual([['c1', 'running']]);

      const owners = ['process-b', 'process-c', 'process-d', 'process-e'];
      const claims = await Promise.all(owners.map((owner) => store.claimOrphanedRun('c1', { owner, ttlMs: 60_000 })));
      const won = claims.filter((claim) => claim !== undefined);
      expect(won).toHaveLength(1);
      const winner = won[0]?.lease?.owner ?? '';
      expect(owners).toContain(winner);
      expect(won[0]).toMatchObject({ runId: 'c1', status: 'running', attempt: 2 });
      expect(await store.listOrphanedRuns()).toEqual([]);
      expect(await store.claimOrphanedRun('c1', B)).toBeUndefined();

      // The process that lost the run can neither renew, write its log nor settle it.
      expect(await store.renewRunLease('c1', A)).toBe(false);
      await expectRejects(store.appendRunEvents([event('c1', 3)], 'process-a'), 'run_lease_lost');
      await expectRejects(store.finishRun('c1', { status: 'answered', leaseOwner: 'process-a' }), 'run_lease_lost');
      expect((await store.getRun('c1'))?.status).toBe('running');
      expect(await store.lastRunEventSeq('c1')).toBe(2);

      // The winner continues the log where it stopped and settles the run.
      await store.appendRunEvents([event('c1', 3, 'metadata')], winner);
      expect(await store.renewRunLease('c1', { owner: winner, ttlMs: 60_000 })).toBe(true);
      expect((await store.finishRun('c1', { status: 'answered', leaseOwner: winner })).status).toBe('answered');
      await store.appendRunEvents([event('c1', 4, 'end')], winner);
      expect((await store.listRunEvents('c1', 0)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    });

    it('frees the thread once the lease expires: a new run ends the orphan failed, with its error and end events', async () => {
      await start('o1', 'orphans', { ...A, ttlMs: 1 });
      await store.appendRunEvents([event('o1', 1, 'metadata'), event('o1', 2)]);
      await new Promise((resolve) => setTimeout(resolve, 25));
      expect((await store.listOrphanedRuns()).map((run) => run.runId)).toEqual(['o1']);

      const next = await start('o2', 'orphans', B);
      expect(next).toMatchObject({ runId: 'o2', status: 'running', lease: { owner: 'process-b' } });
      const orphan = await store.getRun('o1');
      expect(orphan).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/^The process running this run stopped;/),
      });
      expect(orphan?.lease).toBeUndefined();
      expect(orphan?.finishedAt).toBeDefined();
      const events = await store.listRunEvents('o1', 0);
      expect(events.map((e) => [e.seq, e.event])).toEqual([
        [1, 'metadata'],
        [2, 'custom'],
        [3, 'error'],
        [4, 'end'],
      ]);
      expect(events[2]?.data).toMatchObject({ error: 'run_orphaned', hint: expect.any(String) });
      expect(events[3]?.data).toEqual({ status: 'failed' });

      // Superseded, the orphan can no longer be claimed, and its late writer is shut out.
      expect(await store.listOrphanedRuns()).toEqual([]);
      expect(await store.claimOrphanedRun('o1', B)).toBeUndefined();
      expect(await store.renewRunLease('o1', A)).toBe(false);
      await expectRejects(store.appendRunEvents([event('o1', 5)], 'process-a'), 'run_lease_lost');
      expect((await store.listRuns('orphans', 'alice')).map((run) => [run.runId, run.status])).toEqual([
        ['o1', 'failed'],
        ['o2', 'running'],
      ]);
    });

    it('never lets a finished or interrupted run be claimed or renewed, whatever its lease', async () => {
      await start('f1', 'finished');
      await store.finishRun('f1', { status: 'answered', leaseOwner: 'process-a' });
      await start('f2', 'waiting');
      await store.finishRun('f2', { status: 'interrupted' });
      for (const runId of ['f1', 'f2']) {
        expect(await store.renewRunLease(runId, release(A))).toBe(false);
        expect(await store.claimOrphanedRun(runId, B)).toBeUndefined();
      }
      expect(await store.listOrphanedRuns()).toEqual([]);
      expect((await store.getRun('f1'))?.status).toBe('answered');
      expect((await store.getRun('f2'))?.status).toBe('interrupted');
      // Settling twice under a lease is refused: the run is no longer running.
      await expectRejects(store.finishRun('f1', { status: 'failed', leaseOwner: 'process-a' }), 'run_lease_lost');
      expect((await store.getRun('f1'))?.status).toBe('answered');
    });

    it('settles a run and appends its end in one transaction, or neither', async () => {
      await start('e1', 'ends');
      await store.appendRunEvents([event('e1', 1, 'metadata'), event('e1', 2)], 'process-a');
      await expectRejects(
        store.finishRun('e1', { status: 'answered', leaseOwner: 'process-a', endSeq: 2 }),
        'run_event_conflict',
      );
      expect((await store.getRun('e1'))?.status).toBe('running');
      const finished = await store.finishRun('e1', { status: 'answered', leaseOwner: 'process-a', endSeq: 3 });
      expect(finished.status).toBe('answered');
      expect((await store.listRunEvents('e1', 2)).map((e) => [e.seq, e.event, e.data])).toEqual([
        [3, 'end', { status: 'answered' }],
      ]);
    });

    it("knows each run's last event number, and refuses leases without an owner or a duration", async () => {
      await start('s1', 'seqs');
      expect(await store.lastRunEventSeq('s1')).toBe(0);
      await store.appendRunEvents([event('s1', 1), event('s1', 2), event('s1', 3)]);
      expect(await store.lastRunEventSeq('s1')).toBe(3);
      expect(await store.lastRunEventSeq('no-such-run')).toBe(0);

      await expectRejects(start('s2', 'other', { owner: '', ttlMs: 1000 }), 'invalid_input');
      await expectRejects(start('s3', 'other', { owner: 'process-a', ttlMs: 0 }), 'invalid_input');
      await expectRejects(store.claimOrphanedRun('s1', { owner: 'process-b', ttlMs: 0 }), 'invalid_input');
      await expectRejects(store.renewRunLease('s1', { owner: 'process-a', ttlMs: -1 }), 'invalid_input');
      expect(await store.getRun('s2')).toBeUndefined();
    });
  });
}
