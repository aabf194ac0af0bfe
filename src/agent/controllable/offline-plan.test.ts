import { describe, expect, it } from 'vitest';
import { ANSWER_TASK_PREFIX, answerEntity, planOffline, resolveReferences } from './offline-plan.ts';

describe('offline planner', () => {
  it('splits a nested question into the inner hop, the outer hop referring to it, and the answer task', () => {
    const question = 'Who was the first president of the association which published ENTITY_1?';
    expect(planOffline(question, 6)).toEqual([
      'Which association published ENTITY_1?',
      'Who was the first president of #1?',
      `${ANSWER_TASK_PREFIX} ${question}`,
    ]);
    expect(planOffline('What is the birthplace of the performer of ENTITY_1?', 6).slice(0, 2)).toEqual([
      'What is the performer of ENTITY_1?',
      'What is the birthplace of #1?',
    ]);
    // Nested twice: three hops, innermost first.
    expect(
      planOffline('Who was in charge of the country where the composer of ENTITY_1 was a citizen?', 6).slice(0, 3),
    ).toEqual([
      'What is the composer of ENTITY_1?',
      'Which country is where #1 was a citizen?',
      'Who was in charge of #2?',
    ]);
  });

  it('keeps a single need whole, splits listed needs, and respects the task bound', () => {
    expect(planOffline('What is the termination fee of ENTITY_1?', 6)).toEqual([
      'What is the termination fee of ENTITY_1?',
      `${ANSWER_TASK_PREFIX} What is the termination fee of ENTITY_1?`,
    ]);
    expect(planOffline('What are the pricing, term and liability of ENTITY_1?', 6)).toHaveLength(4);
    expect(planOffline('What are the pricing, term and liability of ENTITY_1?', 2)).toHaveLength(2);
    // A split that leaves a need without words of its own was a comma inside a name, not a list.
    expect(planOffline('Who wrote ENTITY_1, ENTITY_2?', 6)).toEqual([
      'Who wrote ENTITY_1, ENTITY_2?',
      `${ANSWER_TASK_PREFIX} Who wrote ENTITY_1, ENTITY_2?`,
    ]);
  });

  it('resolves #n with the entity the earlier answer names, preferring the kind asked for', () => {
    const response =
      'The Journal of Psychotherapy Integration is published by the American Psychological Association on behalf of SEPI.';
    expect(answerEntity('Which association published Journal of Psychotherapy Integration?', response)).toBe(
      'American Psychological Association',
    );
    expect(
      resolveReferences(
        ['Who was the first president of #1?'],
        [{ task: 'Which association published Journal of Psychotherapy Integration?', response }],
      ),
    ).toEqual(['Who was the first president of American Psychological Association?']);
    expect(resolveReferences(['Who founded #1?'], [{ task: 'Which company makes ENTITY_1?', response: '' }])).toEqual([
      'Who founded Which company makes ENTITY_1?',
    ]);
  });
});
