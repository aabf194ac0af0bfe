import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';

describe('the evidence gate on what a tie is about', () => {
  it('reads a sentence naming a namesake of the asked person (Kim Jong-il for Kim Jong-chul) as about the namesake', () => {
    const father = evidenceChunk(
      'paragraphs/kim-jong-il.md#0',
      "Kim Jong-il was the father of Kim Jong-chul. Kim Jong-il's mother, Kim Jong-suk, was Kim Il-sung's first wife.",
    );
    const decision = gateAnswer({
      question: 'Who is the wife of Kim Jong-chul?',
      answer: proposedAnswer('Kim Il-sung', [
        citeIn(father, "Kim Jong-il's mother, Kim Jong-suk, was Kim Il-sung's first wife."),
      ]),
      evidence: [father],
    });
    expect(decision.verdict).toBe('refuse');
    const own = evidenceChunk('paragraphs/kim-jong-chul.md#0', 'The wife of Kim Jong-chul is Ri Sol-hwa, a singer.');
    const stated = gateAnswer({
      question: 'Who is the wife of Kim Jong-chul?',
      answer: proposedAnswer('Ri Sol-hwa', [citeIn(own, 'The wife of Kim Jong-chul is Ri Sol-hwa, a singer.')]),
      evidence: [own, father],
    });
    expect(stated.verdict).toBe('answer');
  });

  it('takes a title as no part of what tells two people apart (President Polk is James Polk)', () => {
    const iowa = evidenceChunk(
      'paragraphs/iowa.md#0',
      'James Polk was the eleventh president. In 1846 President Polk signed the admission bill of Iowa.',
    );
    const decision = gateAnswer({
      question: 'When did James Polk sign the admission bill of Iowa?',
      answer: proposedAnswer('1846', [citeIn(iowa, 'In 1846 President Polk signed the admission bill of Iowa.')]),
      evidence: [iowa],
    });
    expect(decision.verdict).toBe('answer');
  });

  it('reads no further bridge for a resolved nested question: the value is stated about the bridge itself', () => {
    const film = evidenceChunk(
      'paragraphs/harbour-lights.md#0',
      'Harbour Lights is a 1938 British drama film directed by Aldo Venn and starring Mary Kell.',
    );
    const director = evidenceChunk(
      'paragraphs/aldo-venn.md#0',
      'Aldo Venn was an Italian-born film director. He often worked with the producer Piet Olsen.',
    );
    const neighbour = evidenceChunk(
      'paragraphs/piet-olsen.md#0',
      'Piet Olsen was a Danish film producer. The spouse of Piet Olsen was the singer Ruth Hale.',
    );
    const decision = gateAnswer({
      question: 'Who is the spouse of the director of Harbour Lights?',
      answer: proposedAnswer('Ruth Hale', [
        citeIn(film, 'Harbour Lights is a 1938 British drama film directed by Aldo Venn and starring Mary Kell.'),
        citeIn(director, 'He often worked with the producer Piet Olsen.'),
        citeIn(neighbour, 'The spouse of Piet Olsen was the singer Ruth Hale.'),
      ]),
      evidence: [film, director, neighbour],
    });
    expect(decision.verdict).toBe('refuse');
  });

  it("reads a person's surname alone as naming them, unless the text names another person by it", () => {
    const album = evidenceChunk(
      'paragraphs/quiet-rooms.md#0',
      'Quiet Rooms is an album by Ada Brennan, released in 2011.',
    );
    const song = evidenceChunk(
      'paragraphs/harbour-song.md#0',
      'Harbour Song is a ballad. Brennan wrote it in 2009 for her sister, Nora Brennan.',
    );
    const decision = gateAnswer({
      question: 'In which year did Ada Brennan write Harbour Song?',
      answer: proposedAnswer('2009', [citeIn(song, 'Brennan wrote it in 2009 for her sister, Nora Brennan.')]),
      evidence: [song, album],
    });
    // "Nora Brennan" is another person of that name: the sentence may be about her.
    expect(decision.verdict).toBe('refuse');
    const plain = evidenceChunk('paragraphs/harbour-song.md#0', 'Harbour Song is a ballad. Brennan wrote it in 2009.');
    const stated = gateAnswer({
      question: 'In which year did Ada Brennan write Harbour Song?',
      answer: proposedAnswer('2009', [citeIn(plain, 'Brennan wrote it in 2009.')]),
      evidence: [plain],
    });
    expect(stated.verdict).toBe('answer');
  });
});
