import { describe, expect, it } from 'vitest';
import { refersBack, resolveReference } from './references.ts';

describe('follow-up references', () => {
  it('English: a pronoun or "its <noun>" is resolved to the subject', () => {
    expect(refersBack('And its termination fee?')).toBe(true);
    expect(resolveReference('And its termination fee?', 'CT-2024-0193')).toBe('The termination fee of CT-2024-0193?');
    expect(resolveReference('When does it expire?', 'CT-2024-0193')).toBe('When does CT-2024-0193 expire?');
    expect(refersBack('What is the termination fee of CT-2024-0193?')).toBe(false);
  });

  it('Chinese: 它 / 它的 / 该 are references, read as words', () => {
    expect(refersBack('它的包装材料单价是多少？')).toBe(true);
    expect(resolveReference('它的包装材料单价是多少？', 'CT-2024-0201')).toBe('CT-2024-0201 的包装材料单价是多少？');
    expect(resolveReference('那么该合同什么时候到期？', 'CT-2024-0201')).toBe('CT-2024-0201 合同什么时候到期？');
  });

  it('Chinese: words that merely contain a pronoun character are not references', () => {
    expect(refersBack('其他员工可以在家工作几天？')).toBe(false);
    expect(refersBack('报销应该在几天内提交？')).toBe(false);
    expect(refersBack('因此需要审批吗？')).toBe(false);
  });
});
