import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalAclKeys, type Principal } from '../../domain/index.ts';
import { documentWrite } from '../../testing/store-conformance/fixtures.ts';
import { seededRandom } from '../../testing/seeded-random.ts';
import { parseSearchTerms } from '../search-terms.ts';
import { rankKeywords } from './keyword-ranking.ts';
import { SqliteConnection } from './connection.ts';
import { openSqliteStore } from './store.ts';
import { TermStats } from './term-stats.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-keyword-ranking-'));
const path = join(root, 'evident.db');
let conn: SqliteConnection;
let stats: TermStats;

/** Words in frequency tiers, so queries mix terms in most chunks, in many, and in a few. */
const TIERS = [
  { prefix: 'common', words: 3, share: 0.6 },
  { prefix: 'frequent', words: 6, share: 0.3 },
  { prefix: 'mid', words: 20, share: 0.06 },
  { prefix: 'rare', words: 120, share: 0.01 },
];
const PRINCIPALS: [string, Principal][] = [
  ['admin (no filter)', { id: 'root', groups: [], roles: ['admin'] }],
  ['staff (sees ~95%)', { id: 'sam', groups: ['staff'], roles: ['member'] }],
  ['legal (sees ~10%)', { id: 'lee', groups: ['legal'], roles: ['member'] }],
  ['outsider (public ~5%)', { id: 'out', groups: [], roles: ['member'] }],
];

beforeAll(async () => {
  const random = seededRandom(7);
  const store = await openSqliteStore(path);
  const writes = Array.from({ length: 200 }, (_, d) => {
    const roll = random();
    const acl = roll < 0.05 ? [] : roll < 0.1 ? ['group:legal'] : ['group:staff'];
    return documentWrite({
      docId: `doc-${d}.md`,
      acl,
      chunks: Array.from({ length: 4 }, () => {
        const words: string[] = [];
        for (const tier of TIERS) {
          for (let w = 0; w < tier.words; w++) {
            if (random() < tier.share)
              for (let tf = 1 + Math.floor(random() * 3); tf > 0; tf--) words.push(`${tier.prefix}${w}`);
          }
        }
        for (let filler = Math.floor(random() * 30); filler > 0; filler--)
          words.push(`filler${Math.floor(random() * 500)}`);
        return { text: words.join(' ') || 'empty', vector: new Float32Array(8).fill(0.5) };
      }),
    });
  });
  await store.putDocuments(writes);
  await store.close();
  conn = SqliteConnection.open(path);
  stats = new TermStats(conn);
});

afterAll(() => {
  conn?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('rankKeywords', () => {
  it('prunes to exactly the ranking of the unpruned query, for readers who see all, most, or few chunks', () => {
    const random = seededRandom(11);
    const pick = (tier: (typeof TIERS)[number]) => `${tier.prefix}${Math.floor(random() * tier.words)}`;
    const queries = Array.from({ length: 40 }, () => {
      const terms = [pick(TIERS[1]!), pick(TIERS[1]!), pick(TIERS[2]!), pick(TIERS[3]!)];
      if (random() < 0.5) terms.push(pick(TIERS[0]!));
      if (random() < 0.3) terms.push(terms[0]!);
      return parseSearchTerms(terms);
    });
    let pruned = 0;
    for (const [name, principal] of PRINCIPALS) {
      const keys = principalAclKeys(principal);
      for (const k of [5, 20]) {
        for (const terms of queries) {
          const expected = rankKeywords(conn, stats, terms, keys, k, { minPrunedPostings: Infinity });
          const actual = rankKeywords(conn, stats, terms, keys, k, { minPrunedPostings: 30, onPruned: () => pruned++ });
          expect({ name, k, terms, ids: actual.map((row) => row.chunkId) }).toEqual({
            name,
            k,
            terms,
            ids: expected.map((row) => row.chunkId),
          });
          actual.forEach((row, i) => expect(row.score).toBeCloseTo(expected[i]!.score, 9));
        }
      }
    }
    // The comparison means something only if many rankings took the pruned path.
    expect(pruned).toBeGreaterThan(60);
  });

  it('ranks as a plain bm25() ORDER BY over the same terms', () => {
    const terms = parseSearchTerms(['frequent0', 'frequent1', 'mid3', 'rare7', 'frequent0']);
    const plain = conn
      .stmt(
        `SELECT c.id AS chunkId FROM chunk_fts JOIN chunks c ON c.pk = chunk_fts.rowid
         WHERE chunk_fts MATCH ? ORDER BY bm25(chunk_fts), c.pk LIMIT 10`,
      )
      .all('"frequent0" OR "frequent0" OR "frequent1" OR "mid3" OR "rare7"') as { chunkId: string }[];
    const ranked = rankKeywords(conn, stats, terms, undefined, 10, { minPrunedPostings: 30 });
    expect(ranked.map((row) => row.chunkId)).toEqual(plain.map((row) => row.chunkId));
    expect(ranked).toHaveLength(10);
  });
});
