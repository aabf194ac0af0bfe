import { describe, expect, it } from 'vitest';
import { isEvidentError } from '../errors/index.ts';
import { indexTermsOf, relevanceOf, rankedQuery } from './item-ranking.ts';
import {
  checkNamespace,
  indexedTextOf,
  itemAccessOf,
  matchesFilter,
  pageNamespaces,
  serializeValue,
  spaceOf,
} from './item-rules.ts';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return isEvidentError(error) ? error.code : String(error);
  }
};

describe('Store API rules', () => {
  it("puts a user's own namespace and each shared root in separate permission spaces that cannot collide", () => {
    expect(spaceOf(['users', 'alice', 'notes'])).toMatchObject({ kind: 'personal', user: 'alice' });
    expect(spaceOf(['team', 'faq'])).toMatchObject({ kind: 'shared', root: 'team', id: 'team' });
    // A shared root can never spell a personal space: labels hold no control characters.
    expect(codeOf(() => checkNamespace(['users\u001falice']))).toBe('invalid_input');
    expect(itemAccessOf({ id: 'root', groups: [], roles: ['admin'] }).keys).toBeUndefined();
    expect(itemAccessOf({ id: 'bob', groups: ['legal'], roles: ['member'] }).keys).toEqual(['user:bob', 'group:legal']);
  });

  it('indexes the strings of a value, or the fields `index` names, or nothing', () => {
    const value = { text: 'Parking P-204', meta: { floor: 2, tags: ['north', 'covered'] }, empty: '  ' };
    expect(indexedTextOf(value, undefined)).toBe('Parking P-204\n2\nnorth\ncovered');
    expect(indexedTextOf(value, ['text'])).toBe('Parking P-204');
    expect(indexedTextOf(value, ['meta.tags', 'missing.path'])).toBe('north\ncovered');
    expect(indexedTextOf(value, ['$'])).toBe(indexedTextOf(value, undefined));
    expect(indexedTextOf(value, false)).toBeUndefined();
    expect(indexedTextOf({ n: null }, undefined)).toBeUndefined();
    expect(indexedTextOf({ long: 'x'.repeat(20_000) }, undefined)?.length).toBe(8_000);
  });

  it('filters on value fields by equality (deep) and comparison, never across types', () => {
    const value = { kind: 'note', n: 3, tags: ['a', 'b'], nested: { x: 1 } };
    expect(matchesFilter(value, { kind: 'note', tags: ['a', 'b'], nested: { x: 1 } })).toBe(true);
    expect(matchesFilter(value, { tags: ['b', 'a'] })).toBe(false);
    expect(matchesFilter(value, { n: { $gt: 2, $lte: 3 } })).toBe(true);
    expect(matchesFilter(value, { n: { $gt: '2' } })).toBe(false);
    expect(matchesFilter(value, { kind: { $ne: 'todo' } })).toBe(true);
    expect(matchesFilter(value, { absent: { $ne: 1 } })).toBe(true);
    expect(matchesFilter(value, { absent: 1 })).toBe(false);
    // `__proto__` and inherited names are no fields.
    expect(matchesFilter(value, { toString: { $ne: null } })).toBe(true);
    expect(matchesFilter(value, { constructor: Object })).toBe(false);
  });

  it('pages namespaces after prefix, suffix and depth, sorted and without repeats', () => {
    const all = [
      ['a', 'x', '1'],
      ['a', 'y'],
      ['a', 'x', '2'],
      ['b', 'x'],
    ];
    expect(pageNamespaces(all, { limit: 10, offset: 0 })).toEqual([
      ['a', 'x', '1'],
      ['a', 'x', '2'],
      ['a', 'y'],
      ['b', 'x'],
    ]);
    expect(pageNamespaces(all, { limit: 10, offset: 0, maxDepth: 2 })).toEqual([
      ['a', 'x'],
      ['a', 'y'],
      ['b', 'x'],
    ]);
    expect(pageNamespaces(all, { limit: 10, offset: 0, prefix: ['*', 'x'] })).toEqual([
      ['a', 'x', '1'],
      ['a', 'x', '2'],
      ['b', 'x'],
    ]);
    expect(pageNamespaces(all, { limit: 10, offset: 0, suffix: ['x'] })).toEqual([['b', 'x']]);
    expect(pageNamespaces(all, { limit: 1, offset: 2 })).toEqual([['a', 'y']]);
  });

  it('refuses values that are no JSON object, too deep or too large', () => {
    expect(serializeValue({ a: 1 })).toBe('{"a":1}');
    expect(codeOf(() => serializeValue(null))).toBe('invalid_input');
    expect(codeOf(() => serializeValue('text'))).toBe('invalid_input');
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 32; i++) deep = { d: deep };
    expect(codeOf(() => serializeValue(deep))).toBe('invalid_input');
    expect(codeOf(() => serializeValue({ a: 'é'.repeat(33_000) }))).toBe('invalid_input');
  });

  it('scores a query by the larger of keyword coverage and cosine, in 0..1', () => {
    const text = 'Invoices for CT-2024-0193 go to cost centre QX-7731';
    expect(relevanceOf(rankedQuery('QX-7731'), { text }, undefined).score).toBe(1);
    expect(relevanceOf(rankedQuery('cost centre Paris'), { text }, undefined).keyword).toBeCloseTo(2 / 3, 5);
    expect(relevanceOf(rankedQuery('holiday'), { text }, undefined).score).toBe(0);
    const v = new Float32Array([1, 0]);
    expect(relevanceOf(rankedQuery('holiday', v), { text }, new Float32Array([2, 0])).score).toBeCloseTo(1, 6);
    expect(relevanceOf(rankedQuery('holiday', v), { text }, new Float32Array([-1, 0])).score).toBe(0);
    // The terms an item stores score as its text does, without analysing it again; `*` marks a prefix.
    const terms = indexTermsOf(text);
    expect(terms.split(' ')).toContain('qx_7731');
    for (const query of ['QX-7731', 'cost centre Paris', 'invoices', 'holiday', '0x7a25f3 centr*'])
      expect(relevanceOf(rankedQuery(query), { terms }, undefined)).toEqual(
        relevanceOf(rankedQuery(query), { text }, undefined),
      );
    expect(relevanceOf(rankedQuery('centr*'), { terms }, undefined).keyword).toBe(1);
    // Another dimension is not comparable: only the words count.
    expect(relevanceOf(rankedQuery('QX-7731', v), { text }, new Float32Array([1, 0, 0])).vector).toBe(0);
  });
});
