import { describe, expect, it } from 'vitest';
import { anonymize, deanonymize, findEntitiesOffline } from './entities.ts';

describe('offline named entities', () => {
  it('finds identifiers, multi-word names with links, organisations and initials, not question words', () => {
    const entities = findEntitiesOffline(
      'Who was the first president of the association which published Journal of Psychotherapy Integration?',
    );
    expect(entities).toEqual([{ text: 'Journal of Psychotherapy Integration', type: 'name' }]);
    const more = findEntitiesOffline(
      'What is the termination fee of CT-2024-0193 with Northwind Logistics GmbH, and did G. Stanley Hall sign it?',
    );
    expect(more.map((entity) => entity.text).sort()).toEqual(
      ['CT-2024-0193', 'G. Stanley Hall', 'Northwind Logistics GmbH'].sort(),
    );
    expect(more.find((entity) => entity.text === 'Northwind Logistics GmbH')?.type).toBe('organisation');
    expect(more.find((entity) => entity.text === 'CT-2024-0193')?.type).toBe('identifier');
    // A title with commas is one name; a possessive is not part of it.
    expect(
      findEntitiesOffline('Who wrote Alexander and the Terrible, Horrible, No Good, Very Bad Day?').map(
        (entity) => entity.text,
      ),
    ).toEqual(['Alexander and the Terrible, Horrible, No Good, Very Bad Day']);
    expect(findEntitiesOffline("Where did Hello Love's performer live?").map((entity) => entity.text)).toEqual([
      'Hello Love',
    ]);
  });

  it('anonymizes longest first and de-anonymizes back, ignoring entities the text does not contain', () => {
    const question = 'Did the Bank of England lend to England or to Helios Analytics?';
    const { anonymized, mapping } = anonymize(question, [
      { text: 'England', type: 'name' },
      { text: 'Bank of England', type: 'organisation' },
      { text: 'Helios Analytics', type: 'organisation' },
      { text: 'Atlantis', type: 'name' },
    ]);
    expect(anonymized).toBe('Did the ENTITY_2 lend to ENTITY_3 or to ENTITY_1?');
    expect(mapping).toEqual({ ENTITY_1: 'Helios Analytics', ENTITY_2: 'Bank of England', ENTITY_3: 'England' });
    expect(deanonymize(anonymized, mapping)).toBe(question);
  });
});
