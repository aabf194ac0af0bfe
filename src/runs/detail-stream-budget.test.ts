import { describe, expect, it } from 'vitest';
import { DetailStreamBudget } from './detail-stream-budget.ts';

describe('DetailStreamBudget', () => {
  it('stores chunks until the bound, then one notice per mode in its own shape, then drops the mode', () => {
    const budget = new DetailStreamBudget(100, 'run-1');
    expect(budget.admit('events', 'x'.repeat(60), null)).toEqual({ kind: 'store' });
    const cut = budget.admit('events', 'x'.repeat(60), 3);
    expect(cut).toMatchObject({
      kind: 'cut',
      notice: { truncated: true, mode: 'events', limit_bytes: 100, event: 'on_stream_truncated', run_id: 'run-1' },
    });
    expect(budget.admit('events', 'x', null)).toEqual({ kind: 'drop' });
    // Another mode still has what is left of the bound; past it, its own notice.
    expect(budget.admit('tasks', 'x'.repeat(40), null)).toEqual({ kind: 'store' });
    expect(budget.admit('debug', 'x'.repeat(10), 4)).toMatchObject({
      kind: 'cut',
      notice: { truncated: true, type: 'stream_truncated', step: 4 },
    });
    expect(budget.admit('checkpoints', 'x'.repeat(10), null)).toMatchObject({
      kind: 'cut',
      notice: { truncated: true, values: {}, next: [], tasks: [] },
    });
    expect(budget.admit('tasks', 'x'.repeat(10), null)).toMatchObject({
      kind: 'cut',
      notice: { truncated: true, interrupts: [], error: expect.stringContaining('runs.detailStreamMaxBytes') },
    });
  });
});
