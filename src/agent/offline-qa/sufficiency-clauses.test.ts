import { describe, expect, it } from 'vitest';
import { clausesOf } from './sufficiency-clauses.ts';

describe('clauses of a sentence', () => {
  it('splits two facts of one English sentence at a semicolon or a comma before a coordinating word', () => {
    expect(
      clausesOf('The escalation alias is ops-oncall@example.com; the rotation changes every Monday.', 'en'),
    ).toEqual(['The escalation alias is ops-oncall@example.com', 'the rotation changes every Monday.']);
    expect(clausesOf('Each partner may send 600 requests per minute, and bursts are queued.', 'en')).toHaveLength(2);
  });

  it('keeps short pieces with their neighbour, and splits Chinese at clause punctuation', () => {
    expect(clausesOf('In 2024: revenue rose.', 'en')).toEqual(['In 2024 revenue rose.']);
    expect(clausesOf('员工入职满一年后，每年享有十五天带薪年假。', 'zh')).toEqual([
      '员工入职满一年后',
      '每年享有十五天带薪年假。',
    ]);
  });
});
