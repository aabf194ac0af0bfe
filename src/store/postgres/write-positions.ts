import type { WalPosition } from './wal-position.ts';

/**
 * Where in the primary's WAL each scope's latest write (by this process) ended: a thread, a user's memories, the
 * documents. A read of a scope may use a standby only once the standby has replayed that far, so a client reads
 * its own writes. The map is bounded: the oldest scopes are forgotten into a floor that every scope not listed must
 * reach, which errs towards the primary, never towards a stale read.
 */
export class WritePositions {
  private readonly positions = new Map<string, WalPosition>();
  private floor: WalPosition | undefined;

  constructor(private readonly capacity = 10_000) {}

  record(scopes: readonly string[], position: WalPosition): void {
    for (const scope of scopes) {
      const previous = this.positions.get(scope);
      this.positions.delete(scope);
      this.positions.set(scope, previous !== undefined && previous > position ? previous : position);
    }
    while (this.positions.size > this.capacity) {
      const [oldest, at] = this.positions.entries().next().value as [string, WalPosition];
      this.positions.delete(oldest);
      if (this.floor === undefined || at > this.floor) this.floor = at;
    }
  }

  /** Every scope needs at least `position`: what the primary had when this process opened the store. */
  raiseFloor(position: WalPosition): void {
    if (this.floor === undefined || position > this.floor) this.floor = position;
  }

  /** The position a standby must have replayed to serve `scope`; undefined when any standby will do. */
  required(scope: string): WalPosition | undefined {
    const own = this.positions.get(scope);
    if (own === undefined) return this.floor;
    return this.floor !== undefined && this.floor > own ? this.floor : own;
  }
}
