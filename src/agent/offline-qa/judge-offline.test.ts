import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../domain/evidence.ts';
import { isSufficient } from './sufficiency.ts';
import { extractiveAnswer } from './extractive-answer.ts';
import { judgeOffline } from './judge-offline.ts';

const chunk = (text: string, title = 'Orders API', id = 'api/orders-api.md'): Evidence => ({
  chunk_id: `${id}#0`,
  doc_id: id,
  source: '/x',
  title,
  heading: title,
  text,
  score: 1,
  queries: [],
});

describe('offline answerability', () => {
  it('is answerable exactly when the fitted sufficiency reaches the shared threshold', () => {
    const cases = [
      judgeOffline(
        ['What is the pricing of the Orders API?'],
        [chunk('Pricing\n\nThe Orders API costs $0.002 per request.')],
      ),
      judgeOffline(
        ['What is the pricing of the Orders API?'],
        [chunk('Pricing\n\nPricing for the Orders API is discussed with your account manager.')],
      ),
      judgeOffline(
        ['Who wrote the Orders API?'],
        [chunk('Webhooks are signed with HMAC-SHA256.', 'Webhooks', 'api/webhooks.md')],
      ),
    ];
    for (const verdict of cases) {
      expect(verdict.sufficiency).toBeGreaterThanOrEqual(0);
      expect(verdict.sufficiency).toBeLessThanOrEqual(1);
      expect(verdict.answerable).toBe(isSufficient(verdict.sufficiency) && verdict.support.length > 0);
    }
  });

  it('judges a stated price more sufficient than the same topic without one, and cites the sentence', () => {
    const priced = judgeOffline(
      ['What is the pricing of the Orders API?'],
      [chunk('Pricing\n\nThe Orders API costs $0.002 per request.')],
    );
    const unpriced = judgeOffline(
      ['What is the pricing of the Orders API?'],
      [chunk('Pricing\n\nPricing for the Orders API is discussed with your account manager.')],
    );
    expect(priced.sufficiency).toBeGreaterThan(unpriced.sufficiency);
    expect(priced.answerable).toBe(true);
    expect(priced.support[0]).toEqual({
      query: 'What is the pricing of the Orders API?',
      chunk_id: 'api/orders-api.md#0',
      sentence: 'The Orders API costs $0.002 per request.',
    });
  });

  it('refuses evidence about something else, naming what is missing rather than repeating the question', () => {
    const verdict = judgeOffline(
      ['What is the termination fee of CT-2024-0193?'],
      [chunk('Webhooks are signed with HMAC-SHA256 and retried for 72 hours.', 'Webhooks', 'api/webhooks.md')],
    );
    expect(verdict.answerable).toBe(false);
    expect(verdict.missing_information).toHaveLength(1);
    expect(verdict.missing_information[0]).toMatch(
      /^the termination fee of CT-2024-0193 \(no retrieved evidence mentions CT-2024-0193\)$/,
    );
  });

  it('judges a passage that names the topic but not the asked attribute less sufficient than one that states it', () => {
    const lease = chunk(
      'Lease LS-2031-0042 is entered into on 3 May 2031 between Harbor Storage Ltd and Quayside Foods for a cold-storage unit.\n\nRent\n\nThe monthly rent is $9,800, payable in advance.',
      'Lease LS-2031-0042',
      'leases/ls-2031-0042.md',
    );
    const signed = judgeOffline(['Who signed LS-2031-0042 on behalf of Quayside Foods?'], [lease]);
    const rent = judgeOffline(['What is the monthly rent of LS-2031-0042?'], [lease]);
    expect(rent.answerable).toBe(true);
    expect(signed.sufficiency).toBeLessThan(rent.sufficiency);
  });

  it('answers with the value first, then the quoted sentence and its citation', () => {
    const evidence = [chunk('Rate limits\n\nEach partner may send 600 requests per minute.')];
    const verdict = judgeOffline(['What is the rate limit of the Orders API?'], evidence);
    expect(verdict.answerable).toBe(true);
    const answer = extractiveAnswer(verdict, evidence, 1);
    expect(answer.answer.startsWith('600 requests. Each partner may send 600 requests per minute. [1]')).toBe(true);
    expect(evidence[0]?.text).toContain(answer.citations[0]?.quote);
  });

  it('answers a Chinese question from a Chinese passage and judges a missing answer less sufficient', () => {
    const handbook = chunk(
      '年假\n\n员工入职满一年后，每年享有十五天带薪年假。未休完的年假最多可以结转五天到下一年度。',
      '员工手册',
      'hr/handbook.md',
    );
    const answered = judgeOffline(['员工每年有几天年假？'], [handbook]);
    expect(answered.answerable).toBe(true);
    expect(answered.support[0]?.sentence).toBe('员工入职满一年后，每年享有十五天带薪年假。');
    expect(judgeOffline(['员工的退休金是多少？'], [handbook]).sufficiency).toBeLessThan(answered.sufficiency);
  });
});
