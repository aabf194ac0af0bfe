import { describe, expect, it } from 'vitest';
import { LiveRunEvents } from './live-run-events.ts';

const event = (runId: string, seq: number, data: unknown = { seq }) => ({ runId, seq, event: 'custom', data });

describe('live run events', () => {
  it('answers for an executing run from where its execution began, with data as the store returns it (JSON)', () => {
    const live = new LiveRunEvents();
    live.open('r', 0);
    expect(live.after('r', 0)).toEqual([]);
    live.add([event('r', 1, { at: new Date(0), gone: undefined, list: [undefined] }), event('other', 1)]);
    expect(live.after('r', 0)).toEqual([
      { runId: 'r', seq: 1, event: 'custom', data: { at: '1970-01-01T00:00:00.000Z', list: [null] } },
    ]);
    expect(live.after('r', 1)).toEqual([]);
    expect(live.after('other', 0)).toBeUndefined();
    live.close('r');
    expect(live.after('r', 0)).toBeUndefined();
  });

  it('leaves what came before a recovered execution, and what it no longer keeps, to the store', () => {
    const live = new LiveRunEvents();
    live.open('r', 5);
    expect(live.after('r', 4)).toBeUndefined();
    live.add(Array.from({ length: 300 }, (_, index) => event('r', 6 + index)));
    expect(live.after('r', 5)).toBeUndefined();
    const kept = live.after('r', 300 + 5 - 256);
    expect(kept?.map((e) => e.seq)).toEqual(Array.from({ length: 256 }, (_, index) => 50 + index));
    expect(live.after('r', 305)).toEqual([]);
  });

  it('stops answering for a run whose events arrive out of order, rather than answer with a gap', () => {
    const live = new LiveRunEvents();
    live.open('r', 0);
    live.add([event('r', 1), event('r', 3)]);
    expect(live.after('r', 1)).toBeUndefined();
  });
});
