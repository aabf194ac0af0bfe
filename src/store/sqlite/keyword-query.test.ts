import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_TERM_COUNT } from '../search-terms.ts';
import { ftsMatchExpression } from './keyword-query.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';

describe('ftsMatchExpression', () => {
  it('ORs quoted terms and keeps a trailing * outside the quotes', () => {
    expect(ftsMatchExpression(['alpha', 'beta*'])).toBe('"alpha" OR "beta"*');
  });

  it('writes a repeated term once per repeat, up to the bound, so bm25() weighs it by its query frequency', () => {
    expect(ftsMatchExpression(['alpha', 'beta*', 'alpha'])).toBe('"alpha" OR "alpha" OR "beta"*');
    expect(ftsMatchExpression(Array<string>(10).fill('alpha'))).toBe(
      Array<string>(MAX_QUERY_TERM_COUNT).fill('"alpha"').join(' OR '),
    );
    // A prefix and the exact term are different terms.
    expect(ftsMatchExpression(['beta', 'beta*', 'beta'])).toBe('"beta" OR "beta" OR "beta"*');
  });

  it('doubles quotes and drops terms without token characters', () => {
    expect(ftsMatchExpression(['a"b', '*', '"', '  ', '-'])).toBe('"a""b"');
    expect(ftsMatchExpression([])).toBeUndefined();
    expect(ftsMatchExpression(['(', ')'])).toBeUndefined();
  });
});

describe('the chunk_fts tokenizer', () => {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS, { location: ':memory:' });
  db.exec("CREATE VIRTUAL TABLE vocab USING fts5vocab('chunk_fts', 'row')");
  db.prepare('INSERT INTO chunk_fts (rowid, keyword_text) VALUES (1, ?)').run(
    'ct_2024_0193 合同 v1.2 $total café naïve',
  );

  it('keeps every given term as one token', () => {
    const terms = (db.prepare('SELECT term FROM vocab ORDER BY term').all() as { term: string }[]).map(
      (row) => row.term,
    );
    expect(terms.sort()).toEqual(['$total', 'café', 'ct_2024_0193', 'naïve', 'v1.2', '合同'].sort());
  });

  it('survives hostile terms through the match expression', () => {
    const search = (terms: string[]) => {
      const match = ftsMatchExpression(terms);
      return match === undefined ? [] : db.prepare('SELECT rowid FROM chunk_fts WHERE chunk_fts MATCH ?').all(match);
    };
    for (const term of ['"', 'NEAR(', 'a OR b', 'keyword_text:x', '^x', '{x y}', '合同" OR "x', 'x AND']) {
      expect(() => search([term]), term).not.toThrow();
    }
    expect(search(['café'])).toHaveLength(1);
    expect(search(['cafe'])).toHaveLength(0);
  });
});
