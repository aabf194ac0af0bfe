import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../domain/evidence.ts';
import { answerSpans, read } from './reader.ts';

const chunk = (id: string, text: string, title = 'Webhooks guide', heading = ''): Evidence => ({
  chunk_id: `${id}#0`,
  doc_id: id,
  source: `/corpus/${id}`,
  title,
  heading,
  text,
  score: 1,
  queries: [],
});

describe('offline reader', () => {
  const evidence = [
    chunk(
      'api/overview.md',
      'Webhooks\n\nPartners receive webhooks for order events. Each webhook carries the order id.',
    ),
    chunk(
      'api/webhooks.md',
      'Retries\n\nA webhook that is not acknowledged is retried with exponential backoff. We keep retrying for 72 hours, then the event is dropped.',
    ),
  ];

  it("ranks the sentence that states a value of the asked type near the question's words first", () => {
    const reading = read('For how many hours are webhooks retried?', evidence);
    expect(reading.focus.answer_type).toBe('duration');
    const best = reading.candidates[0];
    expect(best?.chunk.doc_id).toBe('api/webhooks.md');
    expect(best?.sentence).toBe('We keep retrying for 72 hours, then the event is dropped.');
    expect(best?.spans.map((span) => span.text)).toEqual(['for 72 hours']);
    expect(evidence[1]?.text).toContain(best?.sentence);
  });

  it('finds the value in the sentence after the one that names the topic, and passes over a question asked back', () => {
    const ticket = chunk(
      'tickets/t.md',
      'HIP-12\n\nThe billing job read the country from an outdated profile. Fixed on 9 April; the invoice was reissued. Why did nobody notice the billing problem?',
      'Tickets',
    );
    const reading = read('On which date was the billing problem fixed?', [ticket]);
    expect(reading.candidates[0]?.sentence).toBe('Fixed on 9 April; the invoice was reissued.');
    expect(reading.candidates[0]?.spans.map((span) => span.text)).toEqual(['9 April']);
    expect(reading.candidates.find((candidate) => candidate.sentence.endsWith('?'))?.idle.interrogative).toBe(true);
  });

  it('prefers the value several passages state, and not a dateline', () => {
    const zh = [
      chunk('a.txt', '新华社北京3月15日电 据报道，ChatGPT于2022年11月30日发布。', 'a'),
      chunk('b.txt', '3月15日消息，OpenAI发布了GPT-4，这是支持ChatGPT的新模型。', 'b'),
      chunk('c.txt', 'ChatGPT由OpenAI公司在2022年11月30日发布。', 'c'),
    ];
    const reading = read('ChatGPT的发布时间', zh);
    const values = reading.candidates.flatMap((candidate) => candidate.spans.map((span) => span.text));
    expect(values).not.toContain('3月15日');
    expect(reading.candidates[0]?.spans[0]?.text).toBe('2022年11月30日');
    expect(reading.candidates[0]?.votes).toBeGreaterThan(0);
  });

  it('does not take a value the question itself states as the answer', () => {
    const spans = answerSpans('What happened to orders in 2023?', 'In 2023 orders grew, and in 2024 they fell.');
    expect(spans).toEqual([]);
    const dates = answerSpans('When did orders fall after 2023?', 'In 2023 orders grew, and in 2024 they fell.');
    expect(dates.map((span) => span.text)).toEqual(['2024']);
  });

  it('counts a WordNet synonym of a key term, for less than the word itself', () => {
    const paraphrase = read('When do you give up on a delivery?', [
      chunk('a.md', 'We quit after three failed attempts at a delivery.'),
    ]);
    const literal = read('When do you quit a delivery?', [
      chunk('a.md', 'We quit after three failed attempts at a delivery.'),
    ]);
    const unrelated = read('When do you give up on a delivery?', [
      chunk('a.md', 'We wait after three failed attempts at a delivery.'),
    ]);
    expect(paraphrase.candidates[0]?.coverage).toBeGreaterThan(unrelated.candidates[0]?.coverage ?? 0);
    expect(literal.candidates[0]?.coverage).toBeGreaterThan(paraphrase.candidates[0]?.coverage ?? 0);
  });

  it('measures entity coverage and coverage across passages', () => {
    const reading = read('What is the termination fee of CT-2024-0193?', [
      chunk('contracts/other.md', 'The termination fee of CT-2023-0077 is $12,000.', 'Contract'),
    ]);
    expect(reading.entityCoverage).toBe(0);
    expect(reading.entitiesFound).toBe(false);
    const found = read('What is the termination fee of CT-2024-0193?', [
      chunk('contracts/ct-2024-0193.md', 'The termination fee of CT-2024-0193 is $48,000.', 'Contract'),
    ]);
    expect(found.entityCoverage).toBe(1);
    expect(found.candidates[0]?.spans.map((span) => span.text)).toEqual(['$48,000']);
    expect(found.unionCoverage).toBeGreaterThanOrEqual(found.chunkCoverage);
  });

  it('reads Chinese passages through the Chinese module', () => {
    const handbook = chunk(
      'handbook.md',
      '员工入职满一年后，每年享有十五天带薪年假。未休完的年假最多可以结转五天到下一年度。',
      '员工手册',
    );
    const reading = read('员工每年有几天年假？', [handbook]);
    expect(reading.focus.language).toBe('zh');
    expect(reading.candidates[0]?.sentence).toBe('员工入职满一年后，每年享有十五天带薪年假。');
    expect(reading.candidates[0]?.spans.map((span) => span.text)).toContain('十五天');
  });
});
