import { describe, expect, it } from 'vitest';
import { LeakOracle, mayRead, textOfBody, type OracleDocument } from './leak-oracle.ts';

const docs: OracleDocument[] = [
  {
    docId: 'public/menu.md',
    title: 'Canteen menu',
    acl: [],
    text: 'The canteen serves soup on Monday and fish on Friday for everyone.',
  },
  {
    docId: 'secret/deal.md',
    title: 'Project Orchid term sheet',
    acl: ['group:board'],
    text: 'Memo for the vault, budget line 5: the board pays 4.2 million for the orchid deal, closing in March.',
    canaries: ['zqsecret1'],
  },
  {
    docId: 'secret/mentioned.md',
    title: 'Canteen menu',
    acl: ['user:carol'],
    text: 'A note that shares the public title and mentions public/menu.md only.',
  },
];
const oracle = new LeakOracle(docs);
const bob = { name: 'bob', groups: ['engineering'] };

describe('LeakOracle', () => {
  it('reads ACLs as the architecture states them', () => {
    expect(mayRead(bob, [])).toBe(true);
    expect(mayRead(bob, ['group:engineering'])).toBe(true);
    expect(mayRead(bob, ['user:bob'])).toBe(true);
    expect(mayRead(bob, ['group:board', 'user:carol'])).toBe(false);
    expect(oracle.deniedTo(bob).map((doc) => doc.docId)).toEqual(['secret/deal.md', 'secret/mentioned.md']);
  });

  it('finds a denied document’s words, id, title and canary in any output, JSON-escaped or not', () => {
    const kinds = (output: string) =>
      oracle.leaks(bob, 'what is on the menu', output).map((leak) => `${leak.kind}:${leak.docId}`);
    expect(kinds('the board pays 4.2 million for the orchid')).toContain('text:secret/deal.md');
    expect(kinds(textOfBody(JSON.stringify({ answer: 'budget line 5:\nthe board pays 4.2' })))).toContain(
      'text:secret/deal.md',
    );
    expect(kinds('see secret/deal.md')).toEqual(['doc_id:secret/deal.md']);
    expect(kinds('PROJECT ORCHID TERM SHEET')).toEqual(['title:secret/deal.md']);
    expect(kinds('data: {"x":"zqsecret1"}')).toEqual(['canary:secret/deal.md']);
  });

  it('does not count what the asker typed, what readable documents say, or a count printed beside an echoed query', () => {
    const query = 'the board pays 4.2 million for the orchid deal';
    expect(oracle.leaks(bob, query, `You asked: ${query}`)).toEqual([]);
    expect(oracle.leaks(bob, 'memo for the vault budget line', '"memo for the vault budget line" → 5')).toEqual([]);
    // The public title and the public doc id another note mentions tell nothing.
    expect(oracle.leaks(bob, 'menu', 'Canteen menu: public/menu.md, soup on Monday and fish on Friday')).toEqual([]);
    // …but a word the query lacks, beside echoed ones, does.
    expect(
      oracle
        .leaks(bob, 'the board pays 4.2 million for the', 'the board pays 4.2 million for the orchid')
        .map((leak) => leak.kind),
    ).toEqual(['text']);
  });
});
