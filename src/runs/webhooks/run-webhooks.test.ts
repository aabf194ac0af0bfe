import { describe, expect, it } from 'vitest';
import { backoffMs } from './run-webhooks.ts';

const config = { initialBackoffMs: 1_000, maxBackoffMs: 60_000 };

describe('webhook backoff', () => {
  it('doubles per attempt, with jitter between half and all of the wait', () => {
    expect(backoffMs(1, config, () => 0)).toBe(500);
    expect(backoffMs(1, config, () => 1)).toBe(1_000);
    expect(backoffMs(2, config, () => 0)).toBe(1_000);
    expect(backoffMs(2, config, () => 1)).toBe(2_000);
    expect(backoffMs(4, config, () => 0.5)).toBe(6_000);
  });

  it('never waits longer than maxBackoffMs, even when the receiver asks for longer', () => {
    expect(backoffMs(30, config, () => 1)).toBe(60_000);
    expect(backoffMs(1, config, () => 0, 3_600_000)).toBe(60_000);
  });

  it("honours a receiver's Retry-After when it is longer than the backoff", () => {
    expect(backoffMs(1, config, () => 0, 5_000)).toBe(5_000);
    expect(backoffMs(3, config, () => 1, 10)).toBe(4_000);
  });
});
