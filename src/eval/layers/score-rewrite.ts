import { containsNormalized } from './normalize-answer-text.ts';
import { notExpected, notExposed, passOrFail, type LayerResult } from './layer-result.ts';

/** The standalone question must contain every expected string (a follow-up resolved to what it refers to). */
export function scoreRewrite(expected: readonly string[] | undefined, standalone: string | null): LayerResult {
  if (!expected?.length) return notExpected;
  if (standalone === null) return notExposed;
  const missing = expected.filter((needle) => !containsNormalized(standalone, needle));
  return passOrFail(
    missing.length === 0,
    missing.length ? `missing ${quoteList(missing)} in "${standalone}"` : `"${standalone}"`,
  );
}

export const quoteList = (items: readonly string[]): string => items.map((item) => JSON.stringify(item)).join(', ');
