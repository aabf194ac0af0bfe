import { answerSchema, type Answer } from '../../domain/answer.ts';
import { passOrFail, type LayerResult } from './layer-result.ts';

export interface CheckedAnswer {
  /** The answer when it satisfies the answer contract. */
  answer: Answer | null;
  result: LayerResult;
}

/**
 * Structured output: the final answer must satisfy the answer contract. Always scored, except for a run that stopped
 * to wait for an approval, which has no final answer yet.
 */
export function scoreSchema(answer: unknown, status: string): CheckedAnswer {
  if (status === 'interrupted' && (answer === null || answer === undefined)) {
    return { answer: null, result: { status: 'n/a', detail: 'waiting for an approval' } };
  }
  if (answer === null || answer === undefined)
    return { answer: null, result: passOrFail(false, `no final answer (status ${status})`, { valid: 0 }) };
  const parsed = answerSchema.safeParse(answer);
  if (parsed.success) return { answer: parsed.data, result: passOrFail(true, 'valid', { valid: 1 }) };
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  return { answer: null, result: passOrFail(false, issues, { valid: 0 }) };
}
