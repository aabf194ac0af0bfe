import { describe, expect, it } from 'vitest';
import { quoteSpans } from './quote-spans.ts';

describe('quoteSpans', () => {
  it('covers a quote that runs over several items, split mid-line and mid-word', () => {
    const items = ['The warranty lasts', ' ', 'thirty-six mon', 'ths from delivery.', 'Other text.'];
    expect(quoteSpans(items, 'lasts thirty-six months from delivery')).toEqual([
      { item: 0, start: 13, end: 18 },
      { item: 2, start: 0, end: 14 },
      { item: 3, start: 0, end: 17 },
    ]);
  });

  it('ignores whitespace and typographic quotes, and finds nothing that is not on the page', () => {
    expect(quoteSpans(['“Net   30”', 'days'], '"Net 30" days')).toEqual([
      { item: 0, start: 0, end: 10 },
      { item: 1, start: 0, end: 4 },
    ]);
    expect(quoteSpans(['Net 30 days'], 'Net 60 days')).toEqual([]);
    expect(quoteSpans(['Net 30 days'], '   ')).toEqual([]);
  });

  it('maps a ligature back to its one character', () => {
    expect(quoteSpans(['the ﬁnal ﬁgure'], 'final figure')).toEqual([{ item: 0, start: 4, end: 14 }]);
  });
});
