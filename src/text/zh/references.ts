import { tagged } from './segmenter.ts';

/**
 * Chinese: pronouns and demonstratives that refer back (它 / 它的 / 其, 该 / 这个 / 那个 / 此 / 上述 …), read as
 * jieba words so that 其他, 应该 or 因此 are not references. A demonstrative before a noun keeps the noun:
 * "该合同的期限" becomes "CT-2024-0201 合同的期限".
 */
const PRONOUNS = new Set(['它', '它们', '其']);
const DEMONSTRATIVES = new Set([
  '该',
  '这个',
  '那个',
  '这份',
  '那份',
  '这项',
  '那项',
  '这家',
  '那家',
  '此',
  '上述',
  '前者',
  '后者',
  '上一个',
]);
const LEADING_CONNECTIVE = /^(那么|还有|另外|并且|而且)[，,\s]*/u;

const references = (question: string) =>
  tagged(question).filter(({ word }) => PRONOUNS.has(word) || DEMONSTRATIVES.has(word));

export const refersBackZh = (question: string): boolean => references(question).length > 0;

/** "它的包装材料单价是多少？" about CT-2024-0201 → "CT-2024-0201 的包装材料单价是多少？". */
export function resolveReferenceZh(question: string, subject: string): string {
  const body = withoutConnectiveZh(question);
  const first = references(body)[0];
  if (!first) return body;
  return `${body.slice(0, first.start)}${subject} ${body.slice(first.end)}`.replace(/\s+的/u, ' 的').trim();
}

export const withoutConnectiveZh = (question: string): string => question.trim().replace(LEADING_CONNECTIVE, '');
