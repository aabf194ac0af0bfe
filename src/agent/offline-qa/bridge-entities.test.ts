import { describe, expect, it } from 'vitest';
import { bridgeCandidates, hopTarget, namesIn } from './bridge-entities.ts';

const passage = (chunk_id: string, title: string, text: string) => ({ chunk_id, title, text });

describe('bridge entities', () => {
  it('reads names, initials and quoted titles from a sentence, without sentence-initial function words', () => {
    expect(namesIn('The film was directed by G. W. Pabst for "Lantern Hill" in Berlin.')).toEqual([
      'G. W. Pabst',
      'Lantern Hill',
      'Berlin',
    ]);
    expect(namesIn('He was born in 1931 in Oslo.', true)).toEqual(['1931', 'Oslo']);
  });

  it('picks the entity the hop evidence names that the question does not', () => {
    const passages = [
      passage(
        'lantern#0',
        'Lantern Hill',
        'Lantern Hill is a 1990 drama film. It was directed by Orsolya Brandt and produced by Kestrel Films.',
      ),
      passage('other#0', 'Hill Country', 'Hill Country is a region of rolling hills.'),
    ];
    const [best] = bridgeCandidates(
      'director of Lantern Hill',
      'Who is the spouse of the director of Lantern Hill?',
      passages,
    );
    expect(best).toMatchObject({ text: 'Orsolya Brandt', chunk_id: 'lantern#0' });
  });

  it('prefers the name carrying the noun the hop asks for', () => {
    const passages = [
      passage('t#0', 'Tekla River', 'The Tekla River flows past Marn and joins the Osvaldo River near Kestrel.'),
    ];
    expect(
      bridgeCandidates(
        'river which the Tekla River turns into',
        'Which sea does the river which the Tekla River turns into reach?',
        passages,
      )[0]?.text,
    ).toBe('Osvaldo River');
  });

  it('reads the size of place asked from where it sits in an address', () => {
    const text = 'The Varna Stream is a tributary of the Olt River in Lerin District, Mordavia.';
    const passages = [passage('v#0', 'Varna Stream', text)];
    expect(
      bridgeCandidates(
        'country where the Varna Stream is found',
        'What is the capital of the country where the Varna Stream is found?',
        passages,
      )[0]?.text,
    ).toBe('Mordavia');
    expect(hopTarget('country where the Varna Stream is found')).toBe('country');
    expect(hopTarget('Which river flows there')).toBe('river');
  });

  it('returns nothing when the evidence names nothing new', () => {
    const passages = [passage('a#0', 'Lantern Hill', 'Lantern Hill is a drama.')];
    expect(
      bridgeCandidates('director of Lantern Hill', 'Who is the spouse of the director of Lantern Hill?', passages),
    ).toEqual([]);
  });
});
