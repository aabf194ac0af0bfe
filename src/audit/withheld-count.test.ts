import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../domain/index.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';
import { countWithheld } from './withheld-count.ts';

/** The sample corpus: finance/market-notes.txt is for group treasury and user erin; contracts/ for group legal and user carol. */
let sample: SampleCorpusStore;
beforeAll(async () => {
  sample = await openSampleCorpusStore([]);
});
afterAll(async () => sample?.close());

const member = (id: string, groups: string[] = []): Principal => ({ id, groups, roles: ['member'] });
const TREASURY = 'treasury equity position stablecoin settlement wallet';
const CONTRACT = 'termination fee of CT-2024-0193';

describe('countWithheld', () => {
  it('counts the documents of an unrestricted top-k the principal may not read, per principal', async () => {
    const count = (principal: Principal, query = TREASURY, topK = 5) =>
      countWithheld(sample.evident.store, query, principal, topK);
    expect(await count(member('bob', ['engineering']))).toBe(1);
    expect(await count(member('erin'))).toBe(0);
    expect(await count(member('tom', ['treasury']))).toBe(0);
    expect(await count({ id: 'root', groups: [], roles: ['admin'] })).toBe(0);

    // CT-2024-0193 (legal and carol) ranks first for its own question: bob may not read it, carol may; whatever else
    // ranks is withheld from both alike (neither is in legal), so they differ by exactly that one document.
    const bobs = await count(member('bob', ['engineering']), CONTRACT);
    expect(bobs).toBeGreaterThanOrEqual(1);
    expect(await count(member('carol'), CONTRACT)).toBe(bobs - 1);
    expect(await count(member('lee', ['legal']), CONTRACT)).toBe(0);
    // Only the top k are looked at: at depth 1 at most one document can be withheld.
    expect(await count(member('bob', ['engineering']), CONTRACT, 1)).toBeLessThanOrEqual(1);
  });

  it('is 0 for a query with no searchable terms, and a number whatever the query', async () => {
    expect(await countWithheld(sample.evident.store, '?!', member('bob'), 5)).toBe(0);
    expect(await countWithheld(sample.evident.store, 'zzqxv unknownword', member('bob'), 5)).toBe(0);
  });
});
