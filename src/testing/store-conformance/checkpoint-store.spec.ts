import { Annotation, END, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Checkpointer, Store } from '../../store/store.ts';
import type { ConformanceSuite } from './suite.ts';

const Counter = Annotation.Root({ count: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }) });

/** A one-node graph that adds 1 to its thread's count, checkpointed by `saver`. */
const counter = (saver: BaseCheckpointSaver) =>
  new StateGraph(Counter)
    .addNode('add', () => ({ count: 1 }))
    .addEdge(START, 'add')
    .addEdge('add', END)
    .compile({ checkpointer: saver });

const thread = (threadId: string) => ({ configurable: { thread_id: threadId } });

/** LangGraph checkpoints in the store's own data, shared by every checkpointer of the store (the checkpoint port). */
export function describeCheckpointStore(suite: ConformanceSuite): void {
  describe('checkpoints', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    async function withCheckpointer<T>(fn: (checkpointer: Checkpointer) => Promise<T>): Promise<T> {
      const checkpointer = await store.openCheckpointer();
      try {
        return await fn(checkpointer);
      } finally {
        await checkpointer.close();
      }
    }

    it("resumes a thread's state through another checkpointer of the store, and after reopening it", async () => {
      await withCheckpointer(async ({ saver }) => {
        expect((await counter(saver).invoke({ count: 0 }, thread('t1'))).count).toBe(1);
      });
      // Another checkpointer, as another process sharing the store opens one, continues the same thread.
      await withCheckpointer(async ({ saver }) => {
        expect((await counter(saver).getState(thread('t1'))).values).toEqual({ count: 1 });
        expect((await counter(saver).invoke({ count: 0 }, thread('t1'))).count).toBe(2);
      });
      store = await suite.reopen();
      await withCheckpointer(async ({ saver }) => {
        expect((await counter(saver).getState(thread('t1'))).values).toEqual({ count: 2 });
        const history = [];
        for await (const snapshot of counter(saver).getStateHistory(thread('t1'))) history.push(snapshot.values);
        expect(history.length).toBeGreaterThanOrEqual(4);
      });
    });

    it('keeps threads apart', async () => {
      await withCheckpointer(async ({ saver }) => {
        await counter(saver).invoke({ count: 0 }, thread('mine'));
        await counter(saver).invoke({ count: 0 }, thread('mine'));
        await counter(saver).invoke({ count: 0 }, thread('yours'));
        expect((await counter(saver).getState(thread('mine'))).values).toEqual({ count: 2 });
        expect((await counter(saver).getState(thread('yours'))).values).toEqual({ count: 1 });
        expect((await counter(saver).getState(thread('nobody'))).values).toEqual({});
      });
    });
  });
}
