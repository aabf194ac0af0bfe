import { describe, expect, it } from 'vitest';
import { findQuote } from './find-quote.ts';

describe('findQuote', () => {
  const text = 'Term\n\nThe agreement runs   36 months.\nA termination fee of $48,000 applies.';

  it('finds an exact quote', () => {
    const range = findQuote(text, 'A termination fee of $48,000 applies.');
    expect(range).toBeDefined();
    expect(text.slice(...range!)).toBe('A termination fee of $48,000 applies.');
  });

  it('ignores differences in whitespace, mapping back to the original text', () => {
    const range = findQuote(text, 'The agreement runs 36 months. A termination');
    expect(text.slice(...range!)).toBe('The agreement runs   36 months.\nA termination');
  });

  it('treats typographic quotes and dashes as plain ones', () => {
    const quoted = 'the “Supplier” – Northwind';
    expect(quoted.slice(...findQuote(quoted, 'the "Supplier" - Northwind')!)).toBe(quoted);
  });

  it('says when the quote is not in the text', () => {
    expect(findQuote(text, 'a fee of $50,000')).toBeUndefined();
    expect(findQuote(text, '   ')).toBeUndefined();
  });
});
