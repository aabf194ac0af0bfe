/** A name found in Chinese text, and the words next to a token that name finders read cues from. */
import type { ZhToken } from './segmenter.ts';

export interface NameCandidate {
  text: string;
  start: number;
  end: number;
  type: 'person' | 'place' | 'organization' | 'title';
  score: number;
}

export const prevWord = (tokens: ZhToken[], i: number): ZhToken | undefined => {
  for (let k = i - 1; k >= 0; k--) if ((tokens[k] as ZhToken).word.trim()) return tokens[k];
  return undefined;
};
export const nextWord = (tokens: ZhToken[], i: number): ZhToken | undefined => {
  for (let k = i + 1; k < tokens.length; k++) if ((tokens[k] as ZhToken).word.trim()) return tokens[k];
  return undefined;
};
