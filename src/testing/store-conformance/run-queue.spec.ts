import { Annotation, END, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { beforeEach, describe, expect, it } from 'vitest';
import { deletesRunCheckpoints, type RunLease, type Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const A: RunLease = { owner: 'process-a', ttlMs: 60_000 };
const B: RunLease = { owner: 'process-b', ttlMs: 60_000 };

const Counter = Annotation.Root({ count: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }) });
const counter = (saver: BaseCheckpointSaver) =>
  new StateGraph(Counter)
    .addNode('add', () => ({ count: 1 }))
    .addEdge(START, 'add')
    .addEdge('add', END)
    .compile({ checkpointer: saver });

/** The run queue of the run log (double-texting): pending runs, first in first out per thread, claimed once. */
export function describeRunQueue(suite: ConformanceSuite): void {
  describe('run queue', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const start = (runId: string, threadId: string, lease: RunLease = A) =>
      store.startRun({ runId, threadId, agent: 'rag', user: 'alice', question: `question of ${runId}`, lease });
    const enqueue = (runId: string, threadId: string, user = 'alice') =>
      store.enqueueRun({
        runId,
        threadId,
        agent: 'rag',
        user,
        question: `question of ${runId}`,
        request: { asked: runId, history: [{ role: 'user', content: 'ü' }] },
      });
    const startable = async () => (await store.listStartableRuns()).map((run) => run.runId);

    it('queues only behind a busy thread, starts the queue first in first out, and gives each run to one claimer', async () => {
      // No thread, or an idle one: nothing is queued, the caller starts the run itself.
      expect(await enqueue('q0', 'queue')).toBeUndefined();
      await start('r1', 'queue');
      await store.finishRun('r1', { status: 'answered' });
      expect(await enqueue('q0', 'queue')).toBeUndefined();
      expect(await store.getRun('q0')).toBeUndefined();

      await start('r2', 'queue');
      const first = await enqueue('q1', 'queue');
      expect(first).toMatchObject({ runId: 'q1', status: 'pending', multitaskStrategy: 'enqueue', user: 'alice' });
      expect(first?.lease).toBeUndefined();
      expect(await enqueue('q2', 'queue')).toMatchObject({ status: 'pending' });
      // While r2 runs nothing starts; a plain start is refused while runs wait, as while one runs.
      expect(await startable()).toEqual([]);
      expect(await store.claimPendingRun('q1', B)).toBeUndefined();
      await store.finishRun('r2', { status: 'answered' });
      await expectRejects(start('r3', 'queue'), 'thread_busy');
      expect((await store.listThreads('alice'))[0]).toMatchObject({ lastStatus: 'pending' });

      // Only the first in line is startable; of several claimers one gets it, with its request as stored.
      expect(await startable()).toEqual(['q1']);
      expect(await store.claimPendingRun('q2', B)).toBeUndefined();
      const owners = ['process-b', 'process-c', 'process-d'];
      const claims = await Promise.all(owners.map((owner) => store.claimPendingRun('q1', { owner, ttlMs: 60_000 })));
      const won = claims.filter((claim) => claim !== undefined);
      expect(won).toHaveLength(1);
      expect(won[0]?.run).toMatchObject({ runId: 'q1', status: 'running', attempt: 1 });
      expect(owners).toContain(won[0]?.run.lease?.owner);
      expect(won[0]?.request).toEqual({ asked: 'q1', history: [{ role: 'user', content: 'ü' }] });
      expect(await store.claimPendingRun('q1', A)).toBeUndefined();
      expect(await startable()).toEqual([]);

      await store.finishRun('q1', { status: 'answered' });
      expect(await startable()).toEqual(['q2']);
      expect((await store.listRuns('queue', 'alice')).map((run) => [run.runId, run.status])).toEqual([
        ['r1', 'answered'],
        ['r2', 'answered'],
        ['q1', 'answered'],
        ['q2', 'pending'],
      ]);
    });

    it("refuses to queue on another user's thread, or for another agent", async () => {
      await start('o1', 'owned');
      await expectRejects(enqueue('o2', 'owned', 'bob'), 'thread_forbidden');
      await expectRejects(
        store.enqueueRun({ runId: 'o3', threadId: 'owned', agent: 'react', user: 'alice', question: 'q', request: {} }),
        'thread_agent_mismatch',
      );
      await expectRejects(
        store.enqueueRun({ runId: 'o4', threadId: 'owned', agent: 'rag', user: 'alice', question: 'q', request: null }),
        'invalid_input',
      );
      expect((await store.listRuns('owned', 'alice')).map((run) => run.runId)).toEqual(['o1']);
    });

    it('leaves a thread whose run is orphaned to recovery before its queue moves', async () => {
      await start('d1', 'dead');
      await enqueue('d2', 'dead');
      expect(await store.renewRunLease('d1', { ...A, ttlMs: 0 })).toBe(true);
      expect(await startable()).toEqual([]);
      expect(await store.claimOrphanedRun('d1', B)).toBeDefined();
      await store.finishRun('d1', { status: 'failed', leaseOwner: 'process-b' });
      expect(await startable()).toEqual(['d2']);
    });

    it('cancels a pending run with its end, and deletes a run that is not running with its events', async () => {
      await start('k1', 'cancel');
      await enqueue('k2', 'cancel');
      expect(await store.cancelPendingRun('k1')).toBeUndefined();
      expect(await store.cancelPendingRun('k2')).toMatchObject({ status: 'cancelled', error: expect.any(String) });
      expect(await store.cancelPendingRun('k2')).toBeUndefined();
      expect((await store.listRunEvents('k2', 0)).map((event) => [event.seq, event.event])).toEqual([
        [1, 'error'],
        [2, 'end'],
      ]);

      expect(await store.deleteRun('k1')).toBe(false);
      expect(await store.deleteRun('k2')).toBe(true);
      expect(await store.getRun('k2')).toBeUndefined();
      expect(await store.listRunEvents('k2', 0)).toEqual([]);
      expect(await store.deleteRun('k2')).toBe(false);
      expect((await store.listRuns('cancel', 'alice')).map((run) => run.runId)).toEqual(['k1']);
    });

    it("deletes a thread's checkpoints after a given one, and keeps the earlier ones and other threads' (a rollback)", async () => {
      const checkpointer = await store.openCheckpointer();
      try {
        const { saver } = checkpointer;
        expect(deletesRunCheckpoints(saver)).toBe(true);
        if (!deletesRunCheckpoints(saver)) return;
        const graph = counter(saver);
        const config = (threadId: string) => ({ configurable: { thread_id: threadId } });
        await graph.invoke({ count: 0 }, config('rolled'));
        const head = (await graph.getState(config('rolled'))).config.configurable?.checkpoint_id as string;
        await graph.invoke({ count: 0 }, config('rolled'));
        await graph.invoke({ count: 0 }, config('other'));
        expect((await graph.getState(config('rolled'))).values).toEqual({ count: 2 });

        expect(await saver.deleteCheckpointsAfter('rolled', head)).toBeGreaterThan(0);
        const state = await graph.getState(config('rolled'));
        expect(state.values).toEqual({ count: 1 });
        expect(state.config.configurable?.checkpoint_id).toBe(head);
        expect(await saver.deleteCheckpointsAfter('rolled', head)).toBe(0);
        expect((await graph.getState(config('other'))).values).toEqual({ count: 1 });
        // Null: the thread had no checkpoint before, so every one of it goes.
        expect(await saver.deleteCheckpointsAfter('rolled', null)).toBeGreaterThan(0);
        expect((await graph.getState(config('rolled'))).values).toEqual({});
        expect((await graph.getState(config('other'))).values).toEqual({ count: 1 });
      } finally {
        await checkpointer.close();
      }
    });
  });
}
