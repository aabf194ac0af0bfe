import { describe, expect, it } from 'vitest';
import { feedbackHtml, feedbackSummaryOf, feedbackText } from './feedback-summary.ts';

describe("the eval report's feedback section", () => {
  const summary = feedbackSummaryOf('/data/evident.db', [
    { agent: 'rag', up: 12, down: 3, withCorrection: 2 },
    { agent: 'react<x>', up: 0, down: 1, withCorrection: 0 },
  ]);

  it('counts per agent in the JSON, snake_case', () => {
    expect(summary).toEqual({
      store: '/data/evident.db',
      agents: { rag: { up: 12, down: 3, with_correction: 2 }, 'react<x>': { up: 0, down: 1, with_correction: 0 } },
    });
  });

  it('renders a table per agent in HTML (escaped) and lines on the terminal; says so when there are none', () => {
    const html = feedbackHtml(summary);
    expect(html).toContain('<h2>User feedback</h2>');
    expect(html).toContain('<tr><td>rag</td><td class="num">12</td><td class="num">3</td><td class="num">2</td></tr>');
    expect(html).toContain('react&lt;x&gt;');
    expect(html).not.toContain('react<x>');
    expect(feedbackText(summary)).toContain('rag: 12 up, 3 down, 2 with a correction');
    expect(feedbackHtml(feedbackSummaryOf('db', []))).toContain('No ratings yet.');
    expect(feedbackHtml(undefined)).toBe('');
    expect(feedbackText(undefined)).toBe('');
  });
});
