import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors/index.ts';
import { PrimaryPositions } from './replica-health.ts';
import { isServerUnavailable } from './server-unavailable.ts';
import { formatWalPosition, parseWalPosition } from './wal-position.ts';
import { WritePositions } from './write-positions.ts';

describe('read replica rules', () => {
  it('orders WAL positions across the high word', () => {
    const low = parseWalPosition('0/FFFFFFFF') as bigint;
    const high = parseWalPosition('1/0') as bigint;
    expect(high > low).toBe(true);
    expect(formatWalPosition(parseWalPosition('16/B374D848') as bigint)).toBe('16/B374D848');
    expect(parseWalPosition(null)).toBeUndefined();
    expect(() => parseWalPosition('16-B3')).toThrow(/WAL position/);
  });

  it('needs a scope written here replayed; forgotten scopes leave a floor that errs towards the primary', () => {
    const positions = new WritePositions(2);
    positions.record(['thread:a'], 10n);
    positions.record(['thread:a'], 5n); // an older position never lowers the requirement
    expect(positions.required('thread:a')).toBe(10n);
    expect(positions.required('thread:b')).toBeUndefined();
    positions.record(['thread:b'], 20n);
    positions.record(['thread:c'], 30n); // evicts thread:a (oldest) into the floor
    expect(positions.required('thread:a')).toBe(10n);
    expect(positions.required('never-written')).toBe(10n);
    expect(positions.required('thread:c')).toBe(30n);
    positions.raiseFloor(25n); // what the primary had when the process opened the store
    expect(positions.required('never-written')).toBe(25n);
    expect(positions.required('thread:b')).toBe(25n);
    expect(positions.required('thread:c')).toBe(30n);
  });

  it('counts a standby within the bound only when it replayed what the primary had that long ago', () => {
    const primary = new PrimaryPositions();
    primary.add(0, 100n, 10_000);
    primary.add(1000, 200n, 10_000);
    primary.add(2000, 300n, 10_000);
    expect(primary.reached(50n, 2000, 5000)).toBe(false); // the oldest sample in the window is 100, at 0 ms
    expect(primary.reached(100n, 2000, 5000)).toBe(true);
    expect(primary.reached(150n, 2500, 1000)).toBe(false); // must have 300 (the sample at 2000)
    expect(primary.reached(300n, 2500, 1000)).toBe(true);
    expect(primary.reached(299n, 9000, 1000)).toBe(false); // no recent sample: the newest one counts
  });

  it('retries on the primary for a lost server, not for a wrong read', () => {
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:55433'), { code: 'ECONNREFUSED' });
    expect(isServerUnavailable(new StoreError('Cannot connect', { cause: lost }))).toBe(true);
    expect(
      isServerUnavailable(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(
      isServerUnavailable(
        Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' }),
      ),
    ).toBe(true);
    expect(isServerUnavailable(new StoreError('Could not search: Connection terminated unexpectedly.'))).toBe(true);
    expect(isServerUnavailable(Object.assign(new Error('relation "chunks" does not exist'), { code: '42P01' }))).toBe(
      false,
    );
    expect(isServerUnavailable(new StoreError('The query vector has dimension 3'))).toBe(false);
  });
});
