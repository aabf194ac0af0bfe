import { beforeEach, describe, expect, it } from 'vitest';
import { FEEDBACK_BOUNDS, type Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Ratings of runs' answers (the feedback port): one per (run, rater), bounded, filtered and paged, counted per agent. */
export function describeFeedbackStore(suite: ConformanceSuite): void {
  describe('feedback', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const finishedRun = async (runId: string, threadId: string, user: string, agent = 'rag') => {
      await store.startRun({
        runId,
        threadId,
        agent,
        user,
        question: `question of ${runId}`,
        lease: { owner: 'process-a', ttlMs: 60_000 },
      });
      await store.finishRun(runId, { status: 'answered' });
    };

    it("records a rating with the run's thread, agent, asker and question, and reads it back for its rater only", async () => {
      await finishedRun('r1', 't1', 'alice');
      const stored = await store.putFeedback({
        runId: 'r1',
        rater: 'alice',
        rating: 'down',
        reason: 'incorrect',
        comment: 'The fee is wrong.',
        correction: 'The fee is 40 EUR.',
        answer: 'The fee is 30 EUR.',
      });
      expect(stored).toMatchObject({
        runId: 'r1',
        rater: 'alice',
        rating: 'down',
        reason: 'incorrect',
        comment: 'The fee is wrong.',
        correction: 'The fee is 40 EUR.',
        answer: 'The fee is 30 EUR.',
        threadId: 't1',
        agent: 'rag',
        user: 'alice',
        question: 'question of r1',
        runStatus: 'answered',
      });
      expect(stored.id).toBeGreaterThan(0);
      expect(stored.createdAt).toBe(stored.updatedAt);
      expect(await store.getFeedback('r1', 'alice')).toEqual(stored);
      expect(await store.getFeedback('r1', 'bob')).toBeUndefined();
      expect(await store.getFeedback('r2', 'alice')).toBeUndefined();
    });

    it("replaces the rater's previous rating, keeping its id and creation time, and drops fields not given again", async () => {
      await finishedRun('r1', 't1', 'alice');
      const first = await store.putFeedback({
        runId: 'r1',
        rater: 'alice',
        rating: 'down',
        reason: 'incorrect',
        correction: 'forty',
        answer: 'thirty',
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await store.putFeedback({ runId: 'r1', rater: 'alice', rating: 'up', answer: 'thirty' });
      expect(second.id).toBe(first.id);
      expect(second.createdAt).toBe(first.createdAt);
      expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
      expect(second.rating).toBe('up');
      expect(second.reason).toBeUndefined();
      expect(second.correction).toBeUndefined();
      expect(await store.listFeedback({ limit: 10 })).toHaveLength(1);
      // Another rater of the same run has a record of their own.
      await store.putFeedback({ runId: 'r1', rater: 'admin', rating: 'down', answer: 'thirty' });
      expect((await store.listFeedback({ runId: 'r1', limit: 10 })).map((f) => f.rater)).toEqual(['admin', 'alice']);
    });

    it('refuses a rating of a run that does not exist, and a field over its bound; cuts a long answer', async () => {
      await expectRejects(
        store.putFeedback({ runId: 'nope', rater: 'alice', rating: 'up', answer: null }),
        'not_found',
      );
      await finishedRun('r1', 't1', 'alice');
      await expectRejects(
        store.putFeedback({
          runId: 'r1',
          rater: 'alice',
          rating: 'down',
          correction: 'x'.repeat(FEEDBACK_BOUNDS.maxCorrectionChars + 1),
          answer: null,
        }),
        'invalid_input',
      );
      await expectRejects(
        store.putFeedback({
          runId: 'r1',
          rater: 'alice',
          rating: 'down',
          comment: 'x'.repeat(FEEDBACK_BOUNDS.maxCommentChars + 1),
          answer: null,
        }),
        'invalid_input',
      );
      await expectRejects(
        store.putFeedback({ runId: 'r1', rater: 'alice', rating: 'sideways' as 'up', answer: null }),
        'invalid_input',
      );
      await expectRejects(
        store.putFeedback({ runId: 'r1', rater: 'alice', rating: 'up', reason: 'bored' as 'other', answer: null }),
        'invalid_input',
      );
      expect(await store.getFeedback('r1', 'alice')).toBeUndefined();
      const long = await store.putFeedback({
        runId: 'r1',
        rater: 'alice',
        rating: 'up',
        answer: 'a'.repeat(FEEDBACK_BOUNDS.maxAnswerChars + 10),
      });
      expect(long.answer).toHaveLength(FEEDBACK_BOUNDS.maxAnswerChars);
    });

    it('filters by agent, rating, rater, correction and time, pages newest first, and counts per agent', async () => {
      await finishedRun('r1', 't1', 'alice', 'rag');
      await finishedRun('r2', 't2', 'alice', 'react');
      await finishedRun('r3', 't3', 'bob', 'rag');
      await store.putFeedback({ runId: 'r1', rater: 'alice', rating: 'down', correction: 'forty', answer: 'a' });
      await store.putFeedback({ runId: 'r2', rater: 'alice', rating: 'up', answer: 'b' });
      // A clear millisecond on each side of the boundary: r2 was written before it, r3 after.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const before = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.putFeedback({ runId: 'r3', rater: 'bob', rating: 'down', answer: 'c' });
      const runs = async (query: Parameters<Store['listFeedback']>[0]) =>
        (await store.listFeedback(query)).map((f) => f.runId);

      expect(await runs({ limit: 10 })).toEqual(['r3', 'r2', 'r1']);
      expect(await runs({ agent: 'rag', limit: 10 })).toEqual(['r3', 'r1']);
      expect(await runs({ rating: 'down', limit: 10 })).toEqual(['r3', 'r1']);
      expect(await runs({ rater: 'alice', limit: 10 })).toEqual(['r2', 'r1']);
      expect(await runs({ hasCorrection: true, limit: 10 })).toEqual(['r1']);
      expect(await runs({ hasCorrection: false, limit: 10 })).toEqual(['r3', 'r2']);
      expect(await runs({ since: before, limit: 10 })).toEqual(['r3']);
      expect(await runs({ until: before, limit: 10 })).toEqual(['r2', 'r1']);
      expect(await runs({ agent: 'controllable', limit: 10 })).toEqual([]);

      const page1 = await store.listFeedback({ limit: 2 });
      expect(page1.map((f) => f.runId)).toEqual(['r3', 'r2']);
      const page2 = await store.listFeedback({ limit: 2, beforeId: page1[1]?.id as number });
      expect(page2.map((f) => f.runId)).toEqual(['r1']);

      expect(await store.countFeedback()).toEqual([
        { agent: 'rag', up: 0, down: 2, withCorrection: 1 },
        { agent: 'react', up: 1, down: 0, withCorrection: 0 },
      ]);
      await expectRejects(store.listFeedback({ limit: 0 }), 'invalid_input');
      await expectRejects(store.listFeedback({ limit: 10, since: 'yesterday' }), 'invalid_input');
    });

    it("withdraws a rater's rating, and deletes ratings with their run's thread", async () => {
      await finishedRun('r1', 't1', 'alice');
      await store.putFeedback({ runId: 'r1', rater: 'alice', rating: 'up', answer: 'a' });
      await store.putFeedback({ runId: 'r1', rater: 'admin', rating: 'down', answer: 'a' });
      expect(await store.deleteFeedback('r1', 'bob')).toBe(false);
      expect(await store.deleteFeedback('r1', 'admin')).toBe(true);
      expect(await store.getFeedback('r1', 'admin')).toBeUndefined();
      expect(await store.getFeedback('r1', 'alice')).toBeDefined();
      expect(await store.deleteThread('t1', 'alice')).toBe(true);
      expect(await store.listFeedback({ limit: 10 })).toEqual([]);
      expect(await store.countFeedback()).toEqual([]);
    });
  });
}
