import { describe, expect, it } from 'vitest';
import { englishHead } from './sufficiency-head.ts';

describe('the head of an English question focus', () => {
  it('reads the asked noun phrase after a question word, or after "what is"', () => {
    expect(englishHead('Which support engineer handled the outage?').words).toEqual(['support', 'engineer']);
    expect(englishHead('What is the phone number of the facilities desk?')).toMatchObject({
      words: ['phone', 'number'],
      kind: 'noun',
    });
    expect(englishHead('At what price did the fund buy its shares?').words).toEqual(['price']);
  });

  it('reads the main verb when the question asks who, when or how often someone did something', () => {
    expect(englishHead('Who signed the lease on behalf of the landlord?')).toMatchObject({
      words: ['signed'],
      kind: 'verb',
      terms: ['sign'],
    });
    expect(englishHead('How often must tenants rotate their keys?').words).toEqual(['rotate']);
  });

  it('reads none from a question without a focus head', () => {
    expect(englishHead('Is it safe to invest in options?').terms).toEqual([]);
  });
});
