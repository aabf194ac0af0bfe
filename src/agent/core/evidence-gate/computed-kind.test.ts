import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';

describe('the evidence gate on a value computed over rows', () => {
  const sales = evidenceChunk(
    'csv/car-sales.csv#0',
    'Model: Skoda Felicia | 1991: 172,000 | 1995: 210,000\nModel: Skoda Favorit | 1991: 181,000 | 1995: 95,000',
  );
  const cited = [citeIn(sales, 'Model: Skoda Felicia | 1991: 172,000 | 1995: 210,000')];
  const computed = { evidence: [sales], fromTable: true, computedFrom: ['1991'] };

  it('refuses a cell for a question offering two answers or asking yes or no', () => {
    const cell = proposedAnswer('The 1991 where Model = Skoda Felicia in csv/car-sales.csv is 172,000. [1]', cited);
    for (const question of [
      'is the number for skoda felicia in 1991 above or below 180,000?',
      'was the number for skoda felicia in 1991 over 180,000?',
    ])
      expect([question, gateAnswer({ question, answer: cell, ...computed }).verdict]).toEqual([question, 'refuse']);
  });

  it('passes the cell a question asks for, and one of the two answers a question offers', () => {
    const cell = proposedAnswer('The 1991 where Model = Skoda Felicia in csv/car-sales.csv is 172,000. [1]', cited);
    expect(
      gateAnswer({ question: 'how many skoda felicia were sold in 1991?', answer: cell, ...computed }).verdict,
    ).toBe('answer');
    const below = proposedAnswer('The comparison for Skoda Felicia in csv/car-sales.csv is below. [1]', cited);
    expect(
      gateAnswer({
        question: 'is the number for skoda felicia in 1991 above or below 180,000?',
        answer: below,
        ...computed,
      }).verdict,
    ).toBe('answer');
  });

  it('takes no quoted row for the yes or no a question about rows asks', () => {
    const question = 'was the number for skoda felicia in 1991 over 180,000?';
    const row = proposedAnswer('Model: Skoda Felicia | 1991: 172,000 | 1995: 210,000. [1]', cited);
    const quoted = gateAnswer({ question, answer: row, evidence: [sales], reground: true });
    expect(quoted.verdict).toBe('refuse');
    expect(quoted.final).toBe(true);
    const no = gateAnswer({ question, answer: proposedAnswer('No [1]', cited), evidence: [sales] });
    expect(no.reason).not.toMatch(/yes\/no quoted from a row/);
    const either = gateAnswer({
      question: 'did the skoda felicia or the skoda favorit sell more in 1991?',
      answer: proposedAnswer('Skoda Favorit [1]', cited),
      evidence: [sales],
    });
    expect(either.reason).not.toMatch(/yes\/no quoted from a row/);
  });

  it('refuses a count whose query keeps rows of any year, decade or place the question asks about', () => {
    const races = evidenceChunk(
      'csv/races.csv#0',
      'Year: 1952 | Caller: Ed Hale\nYear: 1957 | Caller: Bryn Ford\nYear: 1963 | Caller: Ed Hale',
    );
    const count = proposedAnswer('The count where Caller <> Bryn Ford in csv/races.csv is 2. [1]', [
      citeIn(races, 'Year: 1952 | Caller: Ed Hale'),
    ]);
    const question = 'how many races in the 1950s were not called by bryn ford?';
    const run = { question, answer: count, evidence: [races], fromTable: true, computed: true };
    const anyDecade = gateAnswer({ ...run, computedSql: `SELECT COUNT(*) FROM "races" WHERE "Caller" <> 'Bryn Ford'` });
    expect(anyDecade.verdict).toBe('refuse');
    const fifties = gateAnswer({
      ...run,
      answer: proposedAnswer('The count where Caller <> Bryn Ford in csv/races.csv is 1. [1]', [
        citeIn(races, 'Year: 1952 | Caller: Ed Hale'),
      ]),
      computedSql: `SELECT COUNT(*) FROM "races" WHERE "Caller" <> 'Bryn Ford' AND "Year" BETWEEN 1950 AND 1959`,
    });
    expect(fifties.verdict).toBe('answer');
    // A comparison written out as the values it keeps uses the year.
    const later = evidenceChunk('csv/races.csv#0', 'Year: 1952 | Caller: Ed Hale\nYear: 1960 | Caller: Bryn Ford');
    const kept = gateAnswer({
      ...run,
      evidence: [later],
      question: 'how many races before 1960 were not called by bryn ford?',
      answer: proposedAnswer('The result is 1. [1]', [citeIn(later, 'Year: 1952 | Caller: Ed Hale')]),
      computedSql: `SELECT COUNT(*) FROM "races" WHERE "Year" IN ('1952', '1957') AND "Caller" <> 'Bryn Ford'`,
    });
    expect(kept.verdict).toBe('answer');
  });
});
