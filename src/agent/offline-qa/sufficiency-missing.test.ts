import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../domain/evidence.ts';
import { readAttribute } from './sufficiency-attribute.ts';
import { missingAttribute } from './sufficiency-missing.ts';

const lease: Evidence = {
  chunk_id: 'leases/ls-2031-0042.md#0',
  doc_id: 'leases/ls-2031-0042.md',
  source: '/x',
  title: 'Lease LS-2031-0042',
  heading: 'Lease LS-2031-0042',
  text: 'Lease LS-2031-0042 is entered into on 3 May 2031 between Harbor Storage Ltd and Quayside Foods. The monthly rent is $9,800.',
  score: 1,
  queries: [],
};
const context = (question: string) => ({
  question,
  identifiers: ['LS-2031-0042'],
  identifiersFound: true,
  related: 1,
  evidence: 1,
  kind: 'person' as const,
});

describe('what a refusal names as missing', () => {
  it('names the asked attribute the on-topic evidence does not state', () => {
    const question = 'Who signed LS-2031-0042 on behalf of Quayside Foods?';
    expect(missingAttribute(context(question), readAttribute(question, [lease], ['LS-2031-0042'], 'person'))).toBe(
      'who signed LS-2031-0042 on behalf of Quayside Foods (the evidence found mentions LS-2031-0042 but does not say who signed)',
    );
    const engineer = 'Which support engineer handled LS-2031-0042?';
    expect(missingAttribute(context(engineer), readAttribute(engineer, [lease], ['LS-2031-0042'], 'person'))).toBe(
      'the support engineer that handled LS-2031-0042 (the evidence found mentions LS-2031-0042 but states no support engineer)',
    );
  });

  it('leaves the generic description when the head is stated, none was read, or the question wraps a noun phrase', () => {
    const fee = 'What is the termination fee of LS-2031-0042?';
    expect(missingAttribute(context(fee), readAttribute(fee, [lease], ['LS-2031-0042'], 'amount'))).toBeUndefined();
    const rent = 'What is the monthly rent of LS-2031-0042?';
    expect(missingAttribute(context(rent), readAttribute(rent, [lease], ['LS-2031-0042'], 'amount'))).toBeUndefined();
    const yesNo = 'Is LS-2031-0042 still valid?';
    expect(missingAttribute(context(yesNo), readAttribute(yesNo, [lease], ['LS-2031-0042'], 'yes_no'))).toBeUndefined();
  });
});
