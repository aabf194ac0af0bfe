import { describe, expect, it } from 'vitest';
import { containsNormalized, normalizeAnswerText } from './normalize-answer-text.ts';

describe('normalizeAnswerText', () => {
  it('removes digit grouping by commas and spaces, keeping decimals and lists', () => {
    expect(normalizeAnswerText('$48,000')).toBe('$48000');
    expect(normalizeAnswerText('1,234,567.89 USD')).toBe('1234567.89 usd');
    expect(normalizeAnswerText('48 000 and 48\u202f000')).toBe('48000 and 48000');
    expect(normalizeAnswerText('items 1,2 and 3, 4')).toBe('items 1,2 and 3, 4');
    expect(normalizeAnswerText('1,5000')).toBe('1,5000');
  });

  it('folds case, whitespace runs, full-width characters and typographic quotes', () => {
    expect(normalizeAnswerText('  The\n\tFEE  is “$48,000”  ')).toBe('the fee is "$48000"');
    expect(normalizeAnswerText('ＣＴ－２０２４')).toBe('ct-2024');
  });
});

describe('containsNormalized', () => {
  it('matches 48,000 and 48000 both ways, case- and whitespace-insensitively', () => {
    expect(containsNormalized('A termination fee of $48,000 applies.', '48000')).toBe(true);
    expect(containsNormalized('A termination fee of 48000 USD.', '$48,000')).toBe(false);
    expect(containsNormalized('A termination fee of 48000 USD.', '48,000')).toBe(true);
    expect(containsNormalized('Northwind\n  Logistics GmbH', 'northwind logistics')).toBe(true);
    expect(containsNormalized('fee of $4,800', '48,000')).toBe(false);
  });
});
