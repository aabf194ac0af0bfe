import { describe, expect, it } from 'vitest';
import { hopQuestion, offsetReferences, substituteAnswers } from './hop-question.ts';

describe('hops as questions', () => {
  it('words each hop as a question a reader can answer on its own', () => {
    expect(hopQuestion('association which published ENTITY_1')).toBe('Which association published ENTITY_1?');
    expect(hopQuestion('city where Maria Oduya was born')).toBe('Which city is where Maria Oduya was born?');
    expect(hopQuestion('person who made Glass Garden')).toBe('Who made Glass Garden?');
    expect(hopQuestion('county in which Fernvale, Ohio is located')).toBe('In which county Fernvale, Ohio is located?');
    expect(hopQuestion('the main director of Blue Lantern')).toBe('What is the main director of Blue Lantern?');
    expect(hopQuestion('Who is the spouse of #1?')).toBe('Who is the spouse of #1?');
    expect(offsetReferences('Who led #2 after #1?', 3)).toBe('Who led #5 after #4?');
  });

  it('fills earlier answers into a hop', () => {
    expect(substituteAnswers('Who is the spouse of #1?', ['Orsolya Brandt'])).toBe(
      'Who is the spouse of Orsolya Brandt?',
    );
    expect(substituteAnswers('In #2, near #1', ['A'])).toBe('In #2, near A');
  });
});
