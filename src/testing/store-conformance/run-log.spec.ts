import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Threads, runs, run events and cancellation, and the run rules (the run log port). */
export function describeRunLog(suite: ConformanceSuite): void {
  describe('runs and threads', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const run = (runId: string, threadId: string, user: string, question = `question of ${runId}`) => ({
      runId,
      threadId,
      agent: 'rag',
      user,
      question,
      lease: { owner: 'process-a', ttlMs: 60_000 },
    });

    it("records runs with status and timings, and lists the owner's threads newest first", async () => {
      const started = await store.startRun(run('r1', 't1', 'alice', 'What is the fee?'));
      expect(started).toMatchObject({
        runId: 'r1',
        threadId: 't1',
        status: 'running',
        user: 'alice',
        question: 'What is the fee?',
        attempt: 1,
      });
      expect(started.finishedAt).toBeUndefined();
      const finished = await store.finishRun('r1', { status: 'answered' });
      expect(finished.status).toBe('answered');
      expect(Date.parse(finished.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(started.startedAt));
      expect(finished.durationMs).toBeGreaterThanOrEqual(0);
      await store.startRun(run('r2', 't1', 'alice', 'And its cap?'));
      await store.finishRun('r2', { status: 'failed', error: 'model unreachable' });
      await store.startRun(run('r3', 't2', 'alice', 'Another thread'));

      const runs = await store.listRuns('t1', 'alice');
      expect(runs.map((r) => [r.runId, r.status])).toEqual([
        ['r1', 'answered'],
        ['r2', 'failed'],
      ]);
      expect(runs[1]?.error).toBe('model unreachable');
      const threads = await store.listThreads('alice');
      expect(threads.map((t) => [t.threadId, t.runCount, t.lastQuestion])).toEqual([
        ['t2', 1, 'Another thread'],
        ['t1', 2, 'And its cap?'],
      ]);
      expect(threads[1]?.agent).toBe('rag');
      expect(Date.parse(threads[1]?.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(threads[1]?.createdAt ?? ''));
    });

    it('refuses a second run on a thread while one is running, whoever asks, and accepts one after it ends', async () => {
      await store.startRun(run('busy-1', 'busy', 'alice'));
      await expectRejects(store.startRun(run('busy-2', 'busy', 'alice')), 'thread_busy');
      expect(await store.getRun('busy-2')).toBeUndefined();
      await store.startRun(run('other-1', 'other', 'alice'));
      await store.finishRun('busy-1', { status: 'interrupted' });
      expect((await store.startRun(run('busy-3', 'busy', 'alice'))).status).toBe('running');
      expect((await store.listRuns('busy', 'alice')).map((r) => r.runId)).toEqual(['busy-1', 'busy-3']);
    });

    it("never lists another user's threads or runs, and refuses a run on their thread", async () => {
      await store.startRun(run('a1', 'alice-thread', 'alice'));
      await store.startRun(run('b1', 'bob-thread', 'bob'));
      expect((await store.listThreads('bob')).map((t) => t.threadId)).toEqual(['bob-thread']);
      expect(await store.listRuns('alice-thread', 'bob')).toEqual([]);
      expect(await store.listThreads('carol')).toEqual([]);
      await expectRejects(store.startRun(run('b2', 'alice-thread', 'bob')), 'thread_forbidden');
      expect((await store.listRuns('alice-thread', 'alice')).map((r) => r.runId)).toEqual(['a1']);
      await expectRejects(store.finishRun('no-such-run', { status: 'answered' }), 'not_found');
    });

    it('creates empty threads that the first run binds to its agent', async () => {
      const created = await store.createThread({
        threadId: 'empty',
        owner: 'alice',
        metadata: { topic: 'fees', n: 2 },
      });
      expect(created).toMatchObject({
        threadId: 'empty',
        owner: 'alice',
        agent: null,
        metadata: { topic: 'fees', n: 2 },
      });
      expect(await store.getThread('empty')).toEqual(created);
      expect(await store.getThread('missing')).toBeUndefined();
      expect(
        (await store.listThreads('alice')).map((t) => [t.threadId, t.runCount, t.lastQuestion, t.lastStatus]),
      ).toEqual([['empty', 0, '', undefined]]);
      await expectRejects(store.createThread({ threadId: 'empty', owner: 'bob' }), 'thread_exists');
      expect(await store.setThreadMetadata('empty', 'bob', { topic: 'planted' })).toBeUndefined();
      const patched = await store.setThreadMetadata('empty', 'alice', { topic: 'fees', n: 3 });
      expect(patched).toMatchObject({ threadId: 'empty', owner: 'alice', metadata: { topic: 'fees', n: 3 } });
      expect(await store.getThread('empty')).toEqual(patched);
      expect(await store.setThreadMetadata('missing', 'alice', {})).toBeUndefined();
      await store.setThreadMetadata('empty', 'alice', { topic: 'fees', n: 2 });
      const bound = await store.createThread({ threadId: 'copied', owner: 'alice', agent: 'rag' });
      expect(bound).toMatchObject({ threadId: 'copied', agent: 'rag', metadata: {} });
      await expectRejects(store.startRun({ ...run('c1', 'copied', 'alice'), agent: 'react' }), 'thread_agent_mismatch');
      expect(await store.deleteThread('copied', 'alice')).toBe(true);
      expect((await store.getThread('empty'))?.owner).toBe('alice');

      await store.startRun(run('e1', 'empty', 'alice'));
      await store.finishRun('e1', { status: 'cancelled' });
      expect(await store.getThread('empty')).toMatchObject({ agent: 'rag', metadata: { topic: 'fees', n: 2 } });
      expect((await store.listThreads('alice'))[0]).toMatchObject({
        threadId: 'empty',
        runCount: 1,
        lastStatus: 'cancelled',
      });
      await expectRejects(store.startRun({ ...run('e2', 'empty', 'alice'), agent: 'react' }), 'thread_agent_mismatch');
      expect(await store.getRun('e2')).toBeUndefined();
      expect(await store.getRun('e1')).toMatchObject({ runId: 'e1', threadId: 'empty', status: 'cancelled' });
    });

    it('flags a running run for cancellation, and only a running one', async () => {
      await store.startRun(run('c1', 'cancels', 'alice'));
      expect((await store.getRun('c1'))?.cancelRequested).toBeUndefined();
      expect(await store.requestRunCancel('c1')).toBe(true);
      expect((await store.getRun('c1'))?.cancelRequested).toBe(true);
      await store.finishRun('c1', { status: 'cancelled' });
      await store.startRun(run('c2', 'cancels', 'alice'));
      await store.finishRun('c2', { status: 'answered' });
      expect(await store.requestRunCancel('c2')).toBe(false);
      expect((await store.getRun('c2'))?.cancelRequested).toBeUndefined();
      expect(await store.requestRunCancel('no-such-run')).toBe(false);
    });

    it("keeps each run's event log in order, refuses a sequence number twice, and deletes it with the thread", async () => {
      await store.startRun(run('ev1', 'events', 'alice'));
      const event = (seq: number, name = 'custom') => ({
        runId: 'ev1',
        seq,
        event: name,
        data: { seq, text: `步骤 ${seq}` },
      });
      await store.appendRunEvents([event(1, 'metadata'), event(2)]);
      await store.appendRunEvents([event(3), event(4, 'end')]);
      expect(await store.listRunEvents('ev1', 0)).toEqual([event(1, 'metadata'), event(2), event(3), event(4, 'end')]);
      expect((await store.listRunEvents('ev1', 2)).map((e) => e.seq)).toEqual([3, 4]);
      expect((await store.listRunEvents('ev1', 0, 2)).map((e) => e.seq)).toEqual([1, 2]);
      expect(await store.listRunEvents('ev1', 4)).toEqual([]);

      // A batch with one taken number writes nothing of the batch.
      await expectRejects(store.appendRunEvents([event(5), event(3)]), 'run_event_conflict');
      expect((await store.listRunEvents('ev1', 0)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      await expectRejects(store.appendRunEvents([{ ...event(1), runId: 'no-such-run' }]), 'not_found');

      expect(await store.deleteThread('events', 'bob')).toBe(false);
      expect(await store.listRunEvents('ev1', 0)).toHaveLength(4);
      expect(await store.deleteThread('events', 'alice')).toBe(true);
      expect(await store.getThread('events')).toBeUndefined();
      expect(await store.getRun('ev1')).toBeUndefined();
      expect(await store.listRunEvents('ev1', 0)).toEqual([]);
    });
  });
}
