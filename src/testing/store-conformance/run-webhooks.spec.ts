import { beforeEach, describe, expect, it } from 'vitest';
import type { RunLease, RunWebhookWrite, Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const LEASE: RunLease = { owner: 'process-a', ttlMs: 60_000 };
const ALICE = { id: 'alice', groups: ['legal'], roles: [] };
const hook = (eventId: string, url = 'https://hooks.example.com/in'): RunWebhookWrite => ({
  url,
  requester: ALICE,
  eventId,
});

/** Run webhooks (the RunWebhookLog port): recorded with their run, claimed by one process per attempt, and settled. */
export function describeRunWebhooks(suite: ConformanceSuite): void {
  describe('run webhooks', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const start = (runId: string, threadId: string, webhook?: RunWebhookWrite) =>
      store.startRun({
        runId,
        threadId,
        agent: 'rag',
        user: 'alice',
        question: `question of ${runId}`,
        lease: LEASE,
        ...(webhook ? { webhook } : {}),
      });
    const finish = (runId: string) => store.finishRun(runId, { status: 'answered', leaseOwner: LEASE.owner });

    it('records the webhook with its run, and claims it only once the run has ended', async () => {
      await start('w1', 'wt1', hook('event-1'));
      await start('w0', 'wt0');
      const recorded = await store.getRunWebhook('w1');
      expect(recorded).toMatchObject({
        runId: 'w1',
        url: 'https://hooks.example.com/in',
        requester: ALICE,
        eventId: 'event-1',
        state: 'pending',
        attempts: 0,
      });
      expect(recorded?.claim).toBeUndefined();
      expect(await store.getRunWebhook('w0')).toBeUndefined();
      // Running: nothing to deliver yet.
      expect(await store.claimRunWebhooks({ owner: 'p1', ttlMs: 60_000 })).toEqual([]);
      await finish('w1');
      await finish('w0');
      const [claimed, ...rest] = await store.claimRunWebhooks({ owner: 'p1', ttlMs: 60_000 });
      expect(rest).toEqual([]);
      expect(claimed).toMatchObject({ runId: 'w1', attempts: 1, claim: { owner: 'p1' } });
    });

    it('gives each attempt to exactly one of several claimers', async () => {
      for (const id of ['c1', 'c2', 'c3']) {
        await start(id, `thread-${id}`, hook(`event-${id}`));
        await finish(id);
      }
      const owners = ['p1', 'p2', 'p3', 'p4', 'p5'];
      const claims = await Promise.all(owners.map((owner) => store.claimRunWebhooks({ owner, ttlMs: 60_000 })));
      const runIds = claims.flat().map((claim) => claim.runId);
      expect(runIds.sort()).toEqual(['c1', 'c2', 'c3']);
      expect(await store.claimRunWebhooks({ owner: 'p6', ttlMs: 60_000 })).toEqual([]);
      // With a run id, that run's only; an unknown or claimed run gives nothing.
      expect(await store.claimRunWebhooks({ owner: 'p6', ttlMs: 60_000 }, { runId: 'c1' })).toEqual([]);
      expect(await store.claimRunWebhooks({ owner: 'p6', ttlMs: 60_000 }, { runId: 'nope' })).toEqual([]);
    });

    it('lets only the claimer record the attempt, and schedules the next one', async () => {
      await start('r1', 'rt1', hook('event-r1'));
      await finish('r1');
      await store.claimRunWebhooks({ owner: 'p1', ttlMs: 60_000 }, { runId: 'r1' });
      expect(await store.recordWebhookAttempt('r1', 'p2', { state: 'delivered', lastStatus: 200 })).toBeUndefined();
      const pending = await store.recordWebhookAttempt('r1', 'p1', {
        state: 'pending',
        lastStatus: 503,
        lastError: 'The receiver answered HTTP 503.',
        retryInMs: 60_000,
      });
      expect(pending).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 503 });
      expect(pending?.claim).toBeUndefined();
      expect(Date.parse(pending?.nextAttemptAt ?? '')).toBeGreaterThan(Date.now() + 50_000);
      // Not due yet: nobody claims it.
      expect(await store.claimRunWebhooks({ owner: 'p2', ttlMs: 60_000 })).toEqual([]);
      // The claimer released it: recording again without a claim is refused.
      expect(await store.recordWebhookAttempt('r1', 'p1', { state: 'delivered' })).toBeUndefined();
    });

    it('claims again, counting the attempt, once a claim expired; settles for good on delivered or failed', async () => {
      await start('e1', 'et1', hook('event-e1'));
      await finish('e1');
      await store.claimRunWebhooks({ owner: 'dead', ttlMs: 1 }, { runId: 'e1' });
      await new Promise((done) => setTimeout(done, 30));
      const [again] = await store.claimRunWebhooks({ owner: 'p2', ttlMs: 60_000 });
      expect(again).toMatchObject({ runId: 'e1', attempts: 2, claim: { owner: 'p2' } });
      // The process that lost the claim cannot record over the live one.
      expect(await store.recordWebhookAttempt('e1', 'dead', { state: 'failed' })).toBeUndefined();
      const delivered = await store.recordWebhookAttempt('e1', 'p2', { state: 'delivered', lastStatus: 204 });
      expect(delivered).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 204 });
      expect(delivered?.finishedAt).toBeDefined();
      expect(delivered?.lastError).toBeUndefined();
      expect(await store.claimRunWebhooks({ owner: 'p3', ttlMs: 1 })).toEqual([]);
    });

    it('refuses an unbounded URL with the run, and deletes the webhook with its thread', async () => {
      await expectRejects(
        start('b1', 'bt1', hook('event-b1', `https://x.example/${'a'.repeat(3000)}`)),
        'invalid_input',
      );
      expect(await store.getRun('b1')).toBeUndefined();
      await start('d1', 'dt1', hook('event-d1'));
      await finish('d1');
      expect(await store.deleteThread('dt1', 'alice')).toBe(true);
      expect(await store.getRunWebhook('d1')).toBeUndefined();
    });
  });
}
