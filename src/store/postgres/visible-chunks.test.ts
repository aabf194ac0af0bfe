import { describe, expect, it } from 'vitest';
import { VisibleChunkCounts } from './visible-chunks.ts';

describe('VisibleChunkCounts', () => {
  it('reuses a count for the same keys in any order until it is older than its lifetime', async () => {
    let clock = 0;
    const counts = new VisibleChunkCounts(1_000, 10, () => clock);
    let reads = 0;
    const count = async () => ++reads * 100;
    expect(await counts.get(['group:a', 'user:x'], count)).toBe(100);
    clock = 999;
    expect(await counts.get(['user:x', 'group:a'], count)).toBe(100);
    expect(await counts.get(['group:b'], count)).toBe(200);
    clock = 1_000;
    expect(await counts.get(['group:a', 'user:x'], count)).toBe(300);
    expect(reads).toBe(3);
  });

  it('never reuses a count of zero', async () => {
    const counts = new VisibleChunkCounts(60_000, 10, () => 0);
    const answers = [0, 0, 7];
    const count = async () => answers.shift() as number;
    expect(await counts.get(['user:new'], count)).toBe(0);
    expect(await counts.get(['user:new'], count)).toBe(0);
    expect(await counts.get(['user:new'], count)).toBe(7);
    expect(await counts.get(['user:new'], count)).toBe(7);
  });

  it('holds at most its bound of key sets', async () => {
    let reads = 0;
    const counts = new VisibleChunkCounts(60_000, 2, () => 0);
    const count = async () => ++reads;
    await counts.get(['a'], count);
    await counts.get(['b'], count);
    await counts.get(['c'], count);
    await counts.get(['a'], count);
    expect(reads).toBe(4);
  });
});
