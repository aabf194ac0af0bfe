import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalAclKeys, type Principal } from '../../../domain/index.ts';
import { seededRandom } from '../../../testing/seeded-random.ts';
import { documentWrite } from '../../../testing/store-conformance/fixtures.ts';
import { parseSearchTerms, type SearchTerm } from '../../search-terms.ts';
import { aclCondition, aclParams } from '../acl-sql.ts';
import { SqliteConnection } from '../connection.ts';
import { ftsMatch } from '../keyword-query.ts';
import { openSqliteStore } from '../store.ts';
import type { Store } from '../../store.ts';
import { TermStats } from '../term-stats.ts';
import { DecodedBlock } from './block-codec.ts';
import { keywordPostings } from '../migrations/025-keyword-postings.ts';
import { keywordRecent } from '../migrations/026-keyword-recent.ts';
import { backfillKeywordPostings } from './backfill.ts';
import { rankPostings } from './postings-ranking.ts';
import { mergePolicy } from './postings-tails.ts';

/** Words in frequency tiers, so queries mix terms in most chunks, in many, and in a few. */
const TIERS = [
  { prefix: 'common', words: 3, share: 0.6 },
  { prefix: 'frequent', words: 6, share: 0.3 },
  { prefix: 'mid', words: 20, share: 0.06 },
  { prefix: 'rare', words: 120, share: 0.01 },
];
/** Tokens FTS5's unicode61 splits, folds or keeps whole: the postings must see them the same way. */
const ODD = ['Straße', 'café', 'ÉCOLE', 'v1.2', '$total', 'ct_2024_0193', '合同', 'foo-bar', "l'été", 'ǅemal', 'x.y.z'];
/** The odd tokens FTS5 keeps as one token, so a query can name them. */
const ODD_TERMS = ODD.filter((term) => !/[-']/.test(term));
const PRINCIPALS: [string, Principal][] = [
  ['admin (no filter)', { id: 'root', groups: [], roles: ['admin'] }],
  ['staff (sees ~90%)', { id: 'sam', groups: ['staff'], roles: ['member'] }],
  ['legal (sees ~10%)', { id: 'lee', groups: ['legal'], roles: ['member'] }],
  ['outsider (public ~5%)', { id: 'out', groups: [], roles: ['member'] }],
];

const root = mkdtempSync(join(tmpdir(), 'evident-keyword-postings-'));
const path = join(root, 'evident.db');
const random = seededRandom(17);

function chunkText(): string {
  const words: string[] = [];
  for (const tier of TIERS) {
    for (let w = 0; w < tier.words; w++) {
      if (random() < tier.share)
        for (let tf = 1 + Math.floor(random() * 3); tf > 0; tf--) words.push(`${tier.prefix}${w}`);
    }
  }
  for (let filler = Math.floor(random() * 30); filler > 0; filler--) words.push(`filler${Math.floor(random() * 500)}`);
  if (random() < 0.2) words.push(ODD[Math.floor(random() * ODD.length)] as string);
  // Shuffled, so no term sits at a fixed place.
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [words[i], words[j]] = [words[j] as string, words[i] as string];
  }
  return words.join(' ') || 'empty';
}

function write(docId: string, chunks: number) {
  const roll = random();
  const acl = roll < 0.05 ? [] : roll < 0.15 ? ['group:legal'] : ['group:staff'];
  return documentWrite({
    docId,
    acl,
    chunks: Array.from({ length: chunks }, () => {
      const text = chunkText();
      return { text, keywords: text, vector: new Float32Array(8).fill(0.5) };
    }),
  });
}

/** A store written the ways ingestion writes: batches, single documents, replacements (in and across batches), deletions. */
async function fill(store: Store): Promise<void> {
  await store.putDocuments(Array.from({ length: 120 }, (_, d) => write(`doc-${d}.md`, 1 + (d % 5))));
  for (let d = 120; d < 150; d++) await store.putDocument(write(`doc-${d}.md`, 3));
  // Replacements, one of them twice in one batch, and new documents after them.
  await store.putDocuments([write('doc-3.md', 2), write('doc-140.md', 4), write('doc-150.md', 3)]);
  for (const d of [0, 7, 119, 149]) await store.deleteDocument(`doc-${d}.md`);
  await store.putDocument(write('doc-7.md', 6));
  await store.putDocuments(Array.from({ length: 60 }, (_, d) => write(`doc-${200 + d}.md`, 1 + (d % 4))));
  await store.putDocument(write('doc-120.md', 2));
  await store.deleteDocument('doc-259.md');
}

let conn: SqliteConnection;
let stats: TermStats;

beforeAll(async () => {
  // Batches merge their postings into keyword_blocks past 400 recent rows: the ranking reads both tables. The policy
  // is the module's, shared with the next test files of this worker (unit files are not isolated): put back at once.
  const defaultRows = mergePolicy.rows;
  mergePolicy.rows = 400;
  try {
    const store = await openSqliteStore(path);
    await fill(store);
    await store.close();
  } finally {
    mergePolicy.rows = defaultRows;
  }
  conn = SqliteConnection.open(path);
  stats = new TermStats(conn);
});

afterAll(() => {
  conn?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The reference: one FTS5 query ranking every matching visible chunk by bm25(). */
function reference(terms: readonly SearchTerm[], keys: readonly string[] | undefined, k: number) {
  return conn
    .stmt(
      `SELECT c.pk AS pk, c.id AS chunkId, -bm25(chunk_fts) AS score FROM chunk_fts JOIN chunks c ON c.pk = chunk_fts.rowid
       WHERE chunk_fts MATCH @match${aclCondition('c.doc_pk', keys)} ORDER BY bm25(chunk_fts), c.pk LIMIT @k`,
    )
    .all({ match: ftsMatch(terms), k, ...aclParams(keys) }) as { pk: number; chunkId: string; score: number }[];
}

function queries(count: number, seed: number): SearchTerm[][] {
  const pickRandom = seededRandom(seed);
  const pick = (tier: (typeof TIERS)[number]) => `${tier.prefix}${Math.floor(pickRandom() * tier.words)}`;
  return Array.from({ length: count }, (_, q) => {
    const terms = [pick(TIERS[1]!), pick(TIERS[2]!), pick(TIERS[3]!)];
    if (pickRandom() < 0.5) terms.push(pick(TIERS[0]!));
    if (pickRandom() < 0.5) terms.push(pick(TIERS[1]!));
    if (pickRandom() < 0.3) terms.push(terms[0]!);
    if (pickRandom() < 0.2) terms.push('absent-term'.slice(0, 6));
    if (q % 7 === 0) terms.push(ODD_TERMS[q % ODD_TERMS.length]!);
    if (q % 11 === 0) terms.push(terms[1]!.toUpperCase());
    return parseSearchTerms(terms.slice(q % 4 === 0 ? 2 : 0));
  });
}

function expectSameRanking(
  label: string,
  terms: readonly SearchTerm[],
  keys: readonly string[] | undefined,
  k: number,
) {
  const expected = reference(terms, keys, k);
  const actual = rankPostings(conn, stats, terms, keys, k);
  expect(actual, label).toBeDefined();
  expect({ label, ids: actual?.map((row) => row.chunkId) }).toEqual({ label, ids: expected.map((row) => row.chunkId) });
  actual?.forEach((row, i) => expect(Math.abs(row.score - expected[i]!.score), label).toBeLessThan(1e-12));
}

describe('rankPostings', () => {
  it('ranks the same chunks in the same order with the same scores as bm25() over chunk_fts, for every reader', () => {
    const all = queries(80, 23);
    for (const [name, principal] of PRINCIPALS) {
      const keys = principalAclKeys(principal);
      for (const k of [1, 5, 20, 100]) {
        for (const terms of all)
          expectSameRanking(`${name} @${k}: ${terms.map((t) => t.term).join(' ')}`, terms, keys, k);
      }
    }
  });

  it('scores in full only a part of the chunks the terms match (block-max pruning)', () => {
    let scored = 0;
    let matched = 0;
    for (const terms of queries(40, 31)) {
      const counters = { scored: 0 };
      rankPostings(conn, stats, terms, undefined, 5, counters);
      scored += counters.scored;
      matched += (
        conn.stmt('SELECT count(*) AS n FROM chunk_fts WHERE chunk_fts MATCH ?').get(ftsMatch(terms)) as { n: number }
      ).n;
    }
    expect(scored).toBeGreaterThan(0);
    expect(scored).toBeLessThan(matched * 0.5);
  });

  it('answers single terms, odd tokens and terms without postings as FTS5 does', () => {
    for (const term of [...ODD_TERMS, 'common0', 'rare3', 'nothing', 'CAFÉ']) {
      for (const [name, principal] of PRINCIPALS)
        expectSameRanking(`${name}: ${term}`, parseSearchTerms([term]), principalAclKeys(principal), 10);
    }
    expect(rankPostings(conn, stats, parseSearchTerms(['nothing']), undefined, 10)).toEqual([]);
  });

  it('leaves prefix terms and terms FTS5 reads as phrases to FTS5', () => {
    expect(rankPostings(conn, stats, parseSearchTerms(['common*']), undefined, 10)).toBeUndefined();
    expect(rankPostings(conn, stats, parseSearchTerms(['rare1', 'foo-bar']), undefined, 10)).toBeUndefined();
  });
});

describe('keyword postings upkeep', () => {
  it('hold exactly what FTS5 indexed after batches, replacements and deletions (the backfill agrees)', () => {
    const written = postingsOf(conn.db);
    const copy = join(root, 'copy.db');
    conn.db.exec(`VACUUM INTO '${copy}'`);
    const db = new Database(copy);
    db.exec('DELETE FROM keyword_blocks; DELETE FROM keyword_recent; DELETE FROM keyword_doc_terms;');
    backfillKeywordPostings(db);
    expect(JSON.stringify(postingsOf(db))).toBe(JSON.stringify(written));
    expect(JSON.stringify(docTermsOf(db))).toBe(JSON.stringify(docTermsOf(conn.db)));
    db.close();
    // FTS5's own view: every (term, chunk) with its count.
    conn.db.exec("CREATE VIRTUAL TABLE temp.check_instances USING fts5vocab(main, 'chunk_fts', 'instance')");
    const fts = conn.db
      .prepare('SELECT term, doc, count(*) AS tf FROM temp.check_instances GROUP BY term, doc ORDER BY term, doc')
      .all() as { term: string; doc: number; tf: number }[];
    const ours = Object.entries(written).flatMap(([term, postings]) =>
      postings.map(([pk, , tf]) => `${term} ${pk} ${tf}`),
    );
    expect(ours.join('\n')).toBe(fts.map((row) => `${row.term} ${row.doc} ${row.tf}`).join('\n'));
    // Each posting's length is FTS5's row size.
    const sizes = new Map(
      (
        conn.db.prepare('SELECT doc AS pk, count(*) AS n FROM temp.check_instances GROUP BY doc').all() as {
          pk: number;
          n: number;
        }[]
      ).map((row) => [row.pk, row.n]),
    );
    for (const postings of Object.values(written))
      for (const [pk, , , length] of postings) expect(length).toBe(sizes.get(pk));
    conn.db.exec('DROP TABLE temp.check_instances');
  });

  it('are filled from FTS5 when a store from before them opens', async () => {
    const old = join(root, 'old.db');
    conn.db.exec(`VACUUM INTO '${old}'`);
    const db = new Database(old);
    // The store as it was before migrations 025 and 026, which are then run on it (later ones, not about the
    // postings, stay applied).
    db.exec('DROP TABLE keyword_blocks; DROP TABLE keyword_doc_terms; DROP TABLE keyword_recent;');
    keywordPostings.up(db);
    keywordRecent.up(db);
    db.close();
    const store = await openSqliteStore(old);
    const ids = async (terms: string[]) =>
      (await store.keywordSearch(terms, PRINCIPALS[1]![1], 10)).map((h) => h.chunkId);
    const before = await Promise.all(
      queries(10, 5).map((terms) => ids(terms.flatMap((t) => Array<string>(t.count).fill(t.term)))),
    );
    await store.close();
    const upgraded = new Database(old, { readonly: true });
    expect(JSON.stringify(postingsOf(upgraded))).toBe(JSON.stringify(postingsOf(conn.db)));
    upgraded.close();
    const current = await openSqliteStore(path);
    const after = await Promise.all(
      queries(10, 5).map(async (terms) =>
        (
          await current.keywordSearch(
            terms.flatMap((t) => Array<string>(t.count).fill(t.term)),
            PRINCIPALS[1]![1],
            10,
          )
        ).map((h) => h.chunkId),
      ),
    );
    await current.close();
    expect(before).toEqual(after);
    expect(before.flat().length).toBeGreaterThan(20);
  });
});

/** Every term's postings (merged and recent blocks) as [pk, doc, tf, length], in pk order. */
function postingsOf(db: Database.Database): Record<string, [number, number, number, number][]> {
  const out: Record<string, [number, number, number, number][]> = {};
  const decoded = new DecodedBlock();
  for (const row of db
    .prepare(
      `SELECT term, first_pk, count, data FROM keyword_blocks
       UNION ALL SELECT term, first_pk, count, data FROM keyword_recent ORDER BY term, first_pk`,
    )
    .all() as {
    term: string;
    first_pk: number;
    count: number;
    data: Uint8Array;
  }[]) {
    decoded.decode(row.data, row.first_pk, row.count);
    const list = (out[row.term] ??= []);
    for (let i = 0; i < decoded.size; i++)
      list.push([decoded.pk[i]!, decoded.doc[i]!, decoded.tf[i]!, decoded.length[i]!]);
  }
  return out;
}

function docTermsOf(db: Database.Database): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  for (const row of db.prepare('SELECT doc_pk, terms FROM keyword_doc_terms').all() as {
    doc_pk: number;
    terms: string;
  }[])
    out[row.doc_pk] = row.terms.split('\n').sort();
  return out;
}
