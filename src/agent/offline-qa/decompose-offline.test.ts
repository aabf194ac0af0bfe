import { describe, expect, it } from 'vitest';
import { decomposeOffline, isPluralNoun } from './decompose-offline.ts';

describe('offline decompose', () => {
  it('splits a list of needs into grammatical sub-questions, the verb agreeing with each noun', () => {
    expect(decomposeOffline('What are the pricing, risks and delivery timeline of CT-2024-0193?')).toEqual([
      'What is the pricing of CT-2024-0193?',
      'What are the risks of CT-2024-0193?',
      'What is the delivery timeline of CT-2024-0193?',
    ]);
    expect(decomposeOffline('What were the revenue, costs and margin in Q1?')).toEqual([
      'What was the revenue in Q1?',
      'What were the costs in Q1?',
      'What was the margin in Q1?',
    ]);
    expect(decomposeOffline('What is the status, owners, and deadline of HIP-3?')).toEqual([
      'What is the status of HIP-3?',
      'What are the owners of HIP-3?',
      'What is the deadline of HIP-3?',
    ]);
  });

  it('drops the repeated article and reads the head noun before its modifiers', () => {
    expect(
      decomposeOffline(
        'What are the hotel limit in London, the daily meal limit and the amount above which a director must approve expenses?',
      ),
    ).toEqual([
      'What is the hotel limit in London?',
      'What is the daily meal limit?',
      'What is the amount above which a director must approve expenses?',
    ]);
  });

  it("splits joined questions first, a later pronoun read as the first question's subject or record", () => {
    expect(decomposeOffline('When did the initial term of CT-2023-0077 start, and how long does it last?')).toEqual([
      'When did the initial term of CT-2023-0077 start?',
      'How long does the initial term of CT-2023-0077 last?',
    ]);
    expect(decomposeOffline('Which customer placed order A-1003 and what was its order_total_usd?')).toEqual([
      'Which customer placed order A-1003?',
      'What was the order_total_usd of order A-1003?',
    ]);
    expect(
      decomposeOffline(
        'What were the AAPL and MSFT positions at the end of the quarter, and how much of the stablecoin budget has been spent?',
      ),
    ).toEqual([
      'What were the AAPL and MSFT positions at the end of the quarter?',
      'How much of the stablecoin budget has been spent?',
    ]);
  });

  it('keeps single-need questions whole', () => {
    expect(decomposeOffline('What is the termination fee of CT-2024-0193?')).toEqual([
      'What is the termination fee of CT-2024-0193?',
    ]);
    expect(decomposeOffline('What are the terms for termination for convenience and breach in CT-2024-0193?')).toEqual([
      'What are the terms for termination for convenience and breach in CT-2024-0193?',
    ]);
    // A comma inside a number lists nothing.
    expect(decomposeOffline('Who has to sign off before I book a trip that will cost $3,000?')).toEqual([
      'Who has to sign off before I book a trip that will cost $3,000?',
    ]);
    expect(decomposeOffline('What are the fees for 1,200 parcels, 3,400 parcels and 12,000 parcels?')).toHaveLength(3);
    // A clause's comma lists nothing: the question asks one thing under a condition.
    expect(
      decomposeOffline(
        'If the supplier keeps delivering late, how much of the monthly fees do we get credited at most?',
      ),
    ).toHaveLength(1);
  });

  it('tells plural nouns from singular ones ending in s', () => {
    expect(
      ['risks', 'delivery timelines', 'fees', 'data', 'positions at the end of the quarter'].map(isPluralNoun),
    ).toEqual([true, true, true, true, true]);
    expect(
      ['pricing', 'status', 'analysis', 'business', 'liability', 'news', 'amount above which X approves expenses'].map(
        isPluralNoun,
      ),
    ).toEqual([false, false, false, false, false, false, false]);
  });
});
