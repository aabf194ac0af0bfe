import { describe, expect, it } from 'vitest';
import { mendLigatures, scriptMark } from './pdf-scripts.ts';

const base = { str: '10', x: 72, y: 700, fontSize: 11 };

describe('PDF scripts and ligatures', () => {
  it('marks a power, an index, and leaves words and footnote marks apart', () => {
    expect(scriptMark('2.3 · 10', base, { str: '19', x: 110, y: 704, fontSize: 7 })).toBe('^');
    expect(scriptMark('scaled by d', base, { str: 'k', x: 110, y: 697, fontSize: 7 })).toBe('_');
    expect(scriptMark('The BERT', base, { str: 'LARGE', x: 110, y: 697, fontSize: 7 })).toBeUndefined();
    expect(scriptMark('the WNLI set.', base, { str: '8', x: 110, y: 704, fontSize: 7 })).toBeUndefined();
    expect(scriptMark('is in', base, { str: '2', x: 110, y: 704, fontSize: 7 })).toBeUndefined();
    expect(scriptMark('x', base, { str: '2', x: 110, y: 704, fontSize: 7 })).toBe('^');
    // The same size on the same baseline is no script at all.
    expect(scriptMark('10', base, { str: '19', x: 110, y: 700, fontSize: 11 })).toBeUndefined();
  });

  it('writes ligatures out', () => {
    expect(mendLigatures('ﬁne-tuning ﬂows oﬀ the ﬃrst ﬄuent')).toBe('fine-tuning flows off the ffirst ffluent');
  });
});
