/** English: words that refer back to something the conversation named before ("it", "its fee", "the previous one"). */
const REFERRING =
  /\b(it|its|it's|that|this|they|them|their|the previous one|the same one|the last one|the former|the latter)\b/i;
const LEADING_CONNECTIVE = /^(and|so|also|then|ok|okay)\b[,\s]*/i;

export const refersBackEn = (question: string): boolean => REFERRING.test(question);

/** "And its termination fee?" about CT-2024-0193 → "The termination fee of CT-2024-0193?". */
export function resolveReferenceEn(question: string, subject: string): string {
  const rewritten = question
    .trim()
    .replace(LEADING_CONNECTIVE, '')
    .replace(/\bits\s+([\p{L}\p{N} -]+?)(?=[?.!,;]|$)/iu, `the $1 of ${subject}`)
    .replace(/\b(the previous one|the same one|the last one|it|that|this)\b/i, subject);
  return rewritten.charAt(0).toUpperCase() + rewritten.slice(1);
}

export const withoutConnectiveEn = (question: string): string => question.trim().replace(LEADING_CONNECTIVE, '');
