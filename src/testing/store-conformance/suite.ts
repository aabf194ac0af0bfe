import { afterEach, beforeEach } from 'vitest';
import type { Store } from '../../store/store.ts';

/**
 * Opens a store for the conformance suite. Without an argument: a new, empty store. With the `location` of a
 * store the suite has closed: that same store again (for the persistence tests).
 */
export type OpenStore = (existing?: { location: string }) => Promise<Store>;

/** The store under test: a new, empty one for each test, closed after it; `reopen` for the persistence tests. */
export class ConformanceSuite {
  private current: Store | undefined;

  constructor(private readonly open: OpenStore) {
    beforeEach(async () => {
      this.current = await this.open();
    });
    afterEach(async () => {
      await this.current?.close();
      this.current = undefined;
    });
  }

  get store(): Store {
    if (!this.current) throw new Error('The conformance store is open only inside a test.');
    return this.current;
  }

  /** Closes the store and opens the same one again, which the rest of the test then uses. */
  async reopen(): Promise<Store> {
    const { location } = this.store;
    await this.store.close();
    this.current = await this.open({ location });
    return this.current;
  }
}
