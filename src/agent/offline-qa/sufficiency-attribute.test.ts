import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../domain/evidence.ts';
import { readAttribute } from './sufficiency-attribute.ts';

const chunk = (text: string, title: string, id: string): Evidence => ({
  chunk_id: `${id}#0`,
  doc_id: id,
  source: '/x',
  title,
  heading: title,
  text,
  score: 1,
  queries: [],
});

const lease = chunk(
  'Lease LS-2031-0042 is entered into on 3 May 2031 between Harbor Storage Ltd and Quayside Foods for a cold-storage unit. The monthly rent is $9,800.',
  'Lease LS-2031-0042',
  'leases/ls-2031-0042.md',
);

describe('attribute reading', () => {
  it('tells a passage that only names the topic from one that states the asked attribute next to a value', () => {
    const unsigned = readAttribute(
      'Who signed LS-2031-0042 on behalf of Quayside Foods?',
      [lease],
      ['LS-2031-0042', 'Quayside Foods'],
      'person',
    );
    expect(unsigned.headWords).toEqual(['signed']);
    expect(unsigned.headStated).toBe(0);
    expect(unsigned.headValue).toBe(false);
    const rent = readAttribute('What is the monthly rent of LS-2031-0042?', [lease], ['LS-2031-0042'], 'amount');
    expect(rent.headStated).toBe(1);
    expect(rent.headValue).toBe(true);
    expect(rent.attributeComplete).toBe(true);
  });

  it('reads a follow-up by its own words, not by the earlier turn it carries as context', () => {
    const followUp = readAttribute(
      'And the deposit? (context: What is the monthly rent of LS-2031-0042?)',
      [lease],
      [],
      'any',
    );
    expect(followUp.attributeTerms).toEqual(['deposit']);
    expect(followUp.attributeCoverage).toBe(0);
    expect(followUp.askedUnion).toBe(0);
  });
});
