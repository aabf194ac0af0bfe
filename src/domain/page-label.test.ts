import { describe, expect, it } from 'vitest';
import { pageLabel } from './page-label.ts';

describe('pageLabel', () => {
  it('names the slide of a deck and the page of anything else', () => {
    expect(pageLabel('decks/Review.PPTX', 3)).toBe('slide 3');
    expect(pageLabel('kickoff.odp', 1)).toBe('slide 1');
    expect(pageLabel('paper.pdf', 7)).toBe('p. 7');
    expect(pageLabel('notes.pptx.md', 2)).toBe('p. 2');
  });

  it('names the message of a mailbox, and not of a file attached to one', () => {
    expect(pageLabel('mail/Team.MBOX', 4)).toBe('message 4');
    expect(pageLabel('team.mbox/message 2/report.pdf', 1)).toBe('p. 1');
  });
});
