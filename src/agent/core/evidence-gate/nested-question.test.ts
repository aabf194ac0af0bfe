import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';
import { questionView } from './question-view.ts';

// Paragraphs of three documents, as a multi-hop corpus holds them: the film names its director, the director's own
// page names his spouse, and a neighbour's page names another spouse.
const film = evidenceChunk(
  'paragraphs/harbour-lights.md#0',
  'Harbour Lights is a 1938 British drama film directed by Aldo Venn and starring Mary Kell.',
);
const director = evidenceChunk(
  'paragraphs/aldo-venn.md#0',
  'Aldo Venn (1891–1960) was an Italian-born film director. The spouse of Aldo Venn was the actress Clara Dunmore.',
);
const neighbour = evidenceChunk(
  'paragraphs/piet-olsen.md#0',
  'Piet Olsen was a Danish film director. The spouse of the director Piet Olsen was the singer Ruth Hale.',
);
const question = 'Who is the spouse of the director of Harbour Lights?';

describe('the evidence gate on a nested question', () => {
  it('answers with the value its last hop ties to the bridge a cited sentence links to what the question names', () => {
    const decision = gateAnswer({
      question,
      answer: proposedAnswer('Clara Dunmore', [
        citeIn(film, 'Harbour Lights is a 1938 British drama film directed by Aldo Venn and starring Mary Kell.'),
        citeIn(director, 'The spouse of Aldo Venn was the actress Clara Dunmore.'),
      ]),
      evidence: [film, director, neighbour],
    });
    expect(decision.verdict).toBe('answer');
    expect(decision.reason).toContain('Aldo Venn');
  });

  it('refuses the first hop’s answer given as the last one’s (the director, asked for his spouse)', () => {
    const decision = gateAnswer({
      question,
      answer: proposedAnswer('Aldo Venn', [
        citeIn(film, 'Harbour Lights is a 1938 British drama film directed by Aldo Venn and starring Mary Kell.'),
      ]),
      evidence: [film, director, neighbour],
    });
    expect(decision.verdict).toBe('refuse');
  });

  it('refuses a spouse from a document nothing cited links to the film', () => {
    const decision = gateAnswer({
      question,
      answer: proposedAnswer('Ruth Hale', [
        citeIn(neighbour, 'The spouse of the director Piet Olsen was the singer Ruth Hale.'),
      ]),
      evidence: [film, director, neighbour],
    });
    expect(decision.verdict).toBe('refuse');
    expect(decision.answer.answerable).toBe(false);
  });

  it('refuses a value stated in another document that shares no name with the cited chunk naming the entity', () => {
    const decision = gateAnswer({
      question: 'Who is the spouse of Aldo Venn?',
      answer: proposedAnswer('Ruth Hale', [
        citeIn(director, 'Aldo Venn (1891–1960) was an Italian-born film director.'),
        citeIn(neighbour, 'The spouse of the director Piet Olsen was the singer Ruth Hale.'),
      ]),
      evidence: [film, director, neighbour],
    });
    expect(decision.verdict).toBe('refuse');
  });

  describe('bridges of the kind a hop asks', () => {
    const currency = evidenceChunk('paragraphs/portugal.md#0', 'The currency of Portugal is the euro.');
    const question = 'What is the currency of the country where Harbour Lights was filmed?';
    const filmedIn = (sentence: string) => evidenceChunk('paragraphs/harbour-lights-filming.md#0', sentence);

    it('reads a country for "the country where …", not the person the sentence names first', () => {
      const filming = filmedIn('Harbour Lights was filmed by Aldo Venn in Portugal in 1937.');
      const decision = gateAnswer({
        question,
        answer: proposedAnswer('the euro', [
          citeIn(filming, 'Harbour Lights was filmed by Aldo Venn in Portugal in 1937.'),
          citeIn(currency, 'The currency of Portugal is the euro.'),
        ]),
        evidence: [filming, currency],
      });
      expect(decision.reason).toContain('Portugal');
      expect(decision.verdict).toBe('answer');
    });

    it('takes no person for a place: a chain that names no country is unlinked', () => {
      const filming = filmedIn('Harbour Lights was filmed by Aldo Venn in 1937.');
      const decision = gateAnswer({
        question,
        answer: proposedAnswer('the euro', [
          citeIn(filming, 'Harbour Lights was filmed by Aldo Venn in 1937.'),
          citeIn(currency, 'The currency of Portugal is the euro.'),
        ]),
        evidence: [filming, currency],
      });
      expect(decision.verdict).toBe('refuse');
      expect(decision.reason).toMatch(/nested/);
    });
  });

  it('reads a question about a record named by an identifier as one question, not a nested one', () => {
    const ticket = evidenceChunk('tickets/hip-12.md#0', 'HIP-12: the billing problem was fixed on 4 March 2024.');
    const decision = gateAnswer({
      question: 'On which date was the billing problem of HIP-12 fixed?',
      answer: proposedAnswer('4 March 2024', [
        citeIn(ticket, 'HIP-12: the billing problem was fixed on 4 March 2024.'),
      ]),
      evidence: [ticket],
    });
    expect(decision.verdict).toBe('answer');
  });

  it.each([
    ['Who was in charge of the country where the composer of Aschenbrodel was a citizen?', 'Aschenbrodel'],
    ['What body of water is near the location where the Siege of Cassel took place?', 'Cassel'],
    ['What is the Revenue of North in Table 2?', 'North'],
    ['Can you provide more details of E. E. Cummings?', 'E. E. Cummings'],
    [
      'Who was the first president of the association which published Journal of Psychotherapy Integration?',
      'Psychotherapy Integration',
    ],
  ])('reads the names a question writes capitalised: %s', (asked, name) => {
    expect(questionView(asked).entities).toContain(name);
  });

  it('takes a short name for what a nested untyped question asks, never a sentence quoted about the bridge', () => {
    const river = evidenceChunk(
      'paragraphs/lune-river.md#0',
      'The Lune River is a river in Portugal. It is a tributary of the Sarn River in the north of the country.',
    );
    const falls = evidenceChunk(
      'paragraphs/portugal.md#0',
      'Portugal is a country of lakes. The largest waterfall in Portugal is Tavel Falls, on the Sarn River.',
    );
    const nested = 'What is the name of the waterfall in the country where the Lune River is found?';
    const cited = [
      citeIn(river, 'The Lune River is a river in Portugal.'),
      citeIn(falls, 'The largest waterfall in Portugal is Tavel Falls, on the Sarn River.'),
    ];
    const sentence = gateAnswer({
      question: nested,
      answer: proposedAnswer('It is a tributary of the Sarn River in the north of the country. [1]', cited),
      evidence: [river, falls],
    });
    expect(sentence.verdict).toBe('refuse');
    const name = gateAnswer({
      question: nested,
      answer: proposedAnswer('Tavel Falls [2]', cited),
      evidence: [river, falls],
    });
    expect(name.verdict).toBe('answer');
  });

  it('answers a count a nested question asks through a quantity word ("What amount of containers did the port where …")', () => {
    const race = evidenceChunk(
      'paragraphs/tall-ships-race.md#0',
      'The Tall Ships Race of 1984 ended in Port Elm, Norland.',
    );
    const ports = evidenceChunk(
      'paragraphs/ports-of-norland.md#0',
      'In 2010 Harbor Bay handled 513,319 containers, followed by Port Elm, which handled 273,282 containers.',
    );
    const decision = gateAnswer({
      question: 'What amount of containers did the port where the Tall Ships Race ended handle in 2010?',
      answer: proposedAnswer('273,282', [
        citeIn(race, 'The Tall Ships Race of 1984 ended in Port Elm, Norland.'),
        citeIn(
          ports,
          'In 2010 Harbor Bay handled 513,319 containers, followed by Port Elm, which handled 273,282 containers.',
        ),
      ]),
      evidence: [race, ports],
    });
    expect(decision.verdict).toBe('answer');
  });
});
