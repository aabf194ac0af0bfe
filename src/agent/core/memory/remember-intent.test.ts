import { describe, expect, it } from 'vitest';
import { memoryToSave } from './remember-intent.ts';

describe('memoryToSave', () => {
  it('extracts the fact of a remember or note request', () => {
    expect(memoryToSave('Remember that I prefer invoices in EUR.')).toBe('I prefer invoices in EUR');
    expect(memoryToSave('please note that my team is Legal Ops')).toBe('My team is Legal Ops');
    expect(memoryToSave('Keep in mind: CT-2024-0193 renews in March!')).toBe('CT-2024-0193 renews in March');
    expect(memoryToSave("Don't forget that the audit is on Friday")).toBe('The audit is on Friday');
  });

  it('leaves other questions alone', () => {
    expect(memoryToSave('What is the termination fee of CT-2024-0193?')).toBeUndefined();
    expect(memoryToSave('Do you remember the pricing?')).toBeUndefined();
    expect(memoryToSave('What does the note about pricing say?')).toBeUndefined();
    expect(memoryToSave('Remember that')).toBeUndefined();
  });
});
