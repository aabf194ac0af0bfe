import { describe, expect, it } from 'vitest';
import { sourcesBlock } from './completion-content.ts';

describe('sourcesBlock', () => {
  it('names the slide of a deck and the page of a PDF under the answer', () => {
    const block = sourcesBlock({
      answer: 'Revenue grew 12% [1], as the report says [2].',
      answerable: true,
      confidence: 0.9,
      citations: [
        { chunk_id: 'review.pptx#1', doc_id: 'review.pptx', source: 'review.pptx', page: 2, quote: 'Revenue grew 12%' },
        { chunk_id: 'report.pdf#4', doc_id: 'report.pdf', source: 'report.pdf', page: 5, quote: 'grew 12%' },
      ],
      missing_information: [],
    });
    expect(block).toBe(
      '\n\nSources:\n[1] review.pptx (slide 2): "Revenue grew 12%"\n[2] report.pdf (p. 5): "grew 12%"',
    );
  });
});
