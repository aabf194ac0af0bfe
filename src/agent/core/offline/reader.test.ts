import { describe, expect, it } from 'vitest';
import type { Evidence } from '../state.ts';
import { answerSpans, read } from './reader.ts';

const chunk = (id: string, text: string, title = 'Webhooks guide', heading = ''): Evidence => ({
  chunk_id: `${id}#0`, doc_id: id, source: `/corpus/${id}`, title, heading, text, score: 1, queries: [],
});

describe('offline reader', () => {
  const evidence = [
    chunk('api/overview.md', 'Webhooks\n\nPartners receive webhooks for order events. Each webhook carries the order id.'),
    chunk('api/webhooks.md', 'Retries\n\nA webhook that is not acknowledged is retried with exponential backoff. We keep retrying for 72 hours, then the event is dropped.'),
  ];

  it('ranks the sentence that states a value of the asked type near the question\'s words first', () => {
    const reading = read('For how many hours are webhooks retried?', evidence);
    expect(reading.focus.answer_type).toBe('duration');
    const best = reading.candidates[0];
    expect(best?.chunk.doc_id).toBe('api/webhooks.md');
    expect(best?.sentence).toBe('We keep retrying for 72 hours, then the event is dropped.');
    expect(best?.spans.map((span) => span.text)).toEqual(['for 72 hours']);
    expect(evidence[1]?.text).toContain(best?.sentence);
  });

  it('does not take a value the question itself states as the answer', () => {
    const spans = answerSpans('What happened to orders in 2023?', 'In 2023 orders grew, and in 2024 they fell.');
    expect(spans).toEqual([]);
    const dates = answerSpans('When did orders fall after 2023?', 'In 2023 orders grew, and in 2024 they fell.');
    expect(dates.map((span) => span.text)).toEqual(['2024']);
  });

  it('counts a WordNet synonym of a key term, for less than the word itself', () => {
    const paraphrase = read('When do you give up on a delivery?', [chunk('a.md', 'We quit after three failed attempts at a delivery.')]);
    const literal = read('When do you quit a delivery?', [chunk('a.md', 'We quit after three failed attempts at a delivery.')]);
    const unrelated = read('When do you give up on a delivery?', [chunk('a.md', 'We wait after three failed attempts at a delivery.')]);
    expect(paraphrase.candidates[0]?.coverage).toBeGreaterThan(unrelated.candidates[0]?.coverage ?? 0);
    expect(literal.candidates[0]?.coverage).toBeGreaterThan(paraphrase.candidates[0]?.coverage ?? 0);
  });

  it('measures entity coverage and coverage across passages', () => {
    const reading = read('What is the termination fee of CT-2024-0193?', [chunk('contracts/other.md', 'The termination fee of CT-2023-0077 is $12,000.', 'Contract')]);
    expect(reading.entityCoverage).toBe(0);
    expect(reading.entitiesFound).toBe(false);
    const found = read('What is the termination fee of CT-2024-0193?', [chunk('contracts/ct-2024-0193.md', 'The termination fee of CT-2024-0193 is $48,000.', 'Contract')]);
    expect(found.entityCoverage).toBe(1);
    expect(found.candidates[0]?.spans.map((span) => span.text)).toEqual(['$48,000']);
    expect(found.unionCoverage).toBeGreaterThanOrEqual(found.chunkCoverage);
  });

  it('reads Chinese passages through the Chinese module', () => {
    const handbook = chunk('handbook.md', '员工入职满一年后，每年享有十五天带薪年假。未休完的年假最多可以结转五天到下一年度。', '员工手册');
    const reading = read('员工每年有几天年假？', [handbook]);
    expect(reading.focus.language).toBe('zh');
    expect(reading.candidates[0]?.sentence).toBe('员工入职满一年后，每年享有十五天带薪年假。');
    expect(reading.candidates[0]?.spans.map((span) => span.text)).toContain('十五天');
  });
});
