import { describe, expect, it } from 'vitest';
import { pageLabel, pageNoun } from './page-label.ts';

describe('pageLabel (web)', () => {
  it('names the slide of a deck and the page of anything else', () => {
    expect(pageLabel('decks/Review.PPTX', 3)).toBe('slide 3');
    expect(pageNoun('kickoff.odp')).toBe('Slide');
    expect(pageLabel('paper.pdf', 7)).toBe('p. 7');
    expect(pageNoun('paper.pdf')).toBe('Page');
  });

  it('names the message of a mailbox, and not of a file attached to one', () => {
    expect(pageLabel('mail/Team.MBOX', 4)).toBe('message 4');
    expect(pageNoun('team.mbox')).toBe('Message');
    expect(pageLabel('team.mbox/message 2/report.pdf', 1)).toBe('p. 1');
  });
});
