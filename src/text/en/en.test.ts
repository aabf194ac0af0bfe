import { describe, expect, it } from 'vitest';
import { en, englishExpansions, englishKeyTerms } from './en.ts';
import { languageModule, languageOf } from '../languages.ts';
import { namedThings } from './nlp.ts';
import { synonymsOf } from './wordnet.ts';

describe('English language module', () => {
  it('reads a person named before ", who" and no role as a person', () => {
    const sentence = 'Hall, who was the first president of the association, viewed adolescence as a time of turmoil.';
    expect(en.spans(sentence, 'person').map((span) => span.text)).toEqual(['Hall']);
    // A rule names a role or body where a story names a person.
    expect(en.spans('Expenses above $2,000 need the approval of a director.', 'person').map((s) => s.text)).toEqual([
      'a director',
    ]);
    expect(en.spans('Only the treasury group may move funds.', 'person').map((s) => s.text)).toEqual([
      'the treasury group',
    ]);
  });

  it('reads a hyphenated name whole, not up to its hyphen', () => {
    expect(namedThings("Kim Jong-suk was Kim Il-sung's first wife.").people).toEqual(
      expect.arrayContaining(['Kim Jong-suk', 'Kim Il-sung']),
    );
    expect(namedThings("Kim Jong-suk was Kim Il-sung's first wife.").people.some((name) => name.endsWith('-'))).toBe(
      false,
    );
  });

  it('reads the answer type a question asks for', () => {
    const types = [
      ['What is the termination fee of CT-2024-0193?', 'amount'],
      ['How long is the notice period?', 'duration'],
      ['How quickly must we reply to a webhook?', 'duration'],
      ['How often must partners rotate their webhook secret?', 'duration'],
      ['When was the billing problem fixed?', 'date'],
      ['How many partners use the API?', 'number'],
      ['Who signed the contract?', 'person'],
      ['Which company supplies the packaging?', 'organization'],
      ['Where is the data stored?', 'place'],
      ['Is the vendor allowed to see customer data?', 'yes_no'],
      ['Which events does the webhooks guide list?', 'list'],
      ['What does SEV-2 mean?', 'definition'],
      ['What happens when an order is cancelled after shipping?', 'any'],
      ['Do you remember what the termination fee of CT-2024-0193 is?', 'amount'],
      ['Do you remember the termination fee?', 'yes_no'],
      ['Can you please give me some basic information about the Harbour Fund?', 'any'],
      ['Could you tell me when the billing problem was fixed?', 'date'],
      ['Harbour Fund is a fund in euros and another currency that was introduced when?', 'date'],
      ['The pilot was run where?', 'place'],
      ['The invoice was approved by who?', 'person'],
    ] as const;
    for (const [question, type] of types) expect([question, en.focus(question).answer_type]).toEqual([question, type]);
  });

  it('does not take the words that ask for the answer kind as key terms', () => {
    expect(en.focus('How quickly must we reply to a webhook?').key_terms).not.toContain(englishKeyTerms('quickly')[0]);
    expect(en.focus('On which date was the billing problem fixed?').key_terms).not.toContain(
      englishKeyTerms('date')[0],
    );
    expect(en.focus('What is the delivery date of the order?').key_terms).toContain(englishKeyTerms('date')[0]);
  });

  it('keeps content words as analyzer terms and drops question and function words', () => {
    expect(englishKeyTerms('What is the termination fee of CT-2024-0193?')).toEqual([
      'termin',
      'fee',
      'ct_2024_0193',
      'ct',
      '2024',
      '0193',
    ]);
    expect(englishKeyTerms('How many of them are there?')).toEqual([]);
  });

  it('names people, places, organisations, identifiers and years', () => {
    const entities = en.focus('Did Alice Smith sign CT-2024-0193 in London in 2023?').entities;
    expect(entities).toEqual(expect.arrayContaining(['CT-2024-0193', 'Alice Smith', 'London', '2023']));
  });

  it('finds spans of each value type', () => {
    const sentence = 'Northwind must be told at least 90 days before 1 March 2025, or pay $48,000 (10% of fees).';
    expect(en.spans(sentence, 'duration').map((s) => s.text)).toEqual(['at least 90 days']);
    expect(en.spans(sentence, 'date').map((s) => s.text)).toContain('1 March 2025');
    expect(en.spans(sentence, 'amount').map((s) => s.text)).toEqual(['$48,000', '10%']);
    expect(en.spans('The contract was signed by Alice Smith.', 'person').map((s) => s.text)).toEqual(['Alice Smith']);
    expect(en.spans('SEV-2 means a major feature is degraded.', 'definition').map((s) => s.text)).toEqual([
      'a major feature is degraded',
    ]);
    expect(en.spans('Pricing is discussed with your account manager.', 'amount')).toEqual([]);
    // A date answers "how long" only as a deadline.
    expect(en.spans('The offer is open until 30 April 2025.', 'duration').map((s) => s.text)).toEqual([
      '30 April 2025',
    ]);
    expect(en.spans('Top Leaderboard Systems (Dec 10th, 2018)', 'duration')).toEqual([]);
    // How often: a frequency is a length of time between events.
    expect(
      en
        .spans('Secrets are rotated every 90 days, backups run nightly and audits once a year.', 'duration')
        .map((s) => s.text),
    ).toEqual(['every 90 days', 'nightly', 'once a year']);
    expect(en.spans('Reports are sent monthly.', 'duration').map((s) => s.text)).toEqual(['monthly']);
    expect(
      en
        .spans('The seal is replaced every eighteen months, the oil every two thousand operating hours.', 'duration')
        .map((s) => s.text),
    ).toEqual(['every eighteen months', 'every two thousand operating hours']);
    const span = en.spans(sentence, 'amount')[0];
    expect(span && sentence.slice(span.start, span.end)).toBe('$48,000');
  });

  it('paraphrases key terms with WordNet synonyms, as analyzer terms', () => {
    expect(synonymsOf('give up')).toContain('quit');
    expect(synonymsOf('refund')).toContain('repayment');
    expect(synonymsOf('zzzz-not-a-word')).toEqual([]);
    const expansions = englishExpansions('When do you give up delivering?');
    expect(expansions.get('give')).toContainEqual(['quit']);
  });

  it('routes a text to its language module', () => {
    expect(languageOf('How many days of leave do I get?')).toBe('en');
    expect(languageOf('员工每年有几天年假？')).toBe('zh');
    expect(languageOf('使用HIP-3协议的客户有哪些？')).toBe('zh');
    expect(languageModule('zh').code).toBe('zh');
  });
});
