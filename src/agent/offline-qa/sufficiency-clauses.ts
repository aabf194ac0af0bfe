import type { LanguageCode } from '../../text/language.ts';

/**
 * The clauses of a sentence: where one sentence states two facts ("The alias is sec-oncall@; the rotation is weekly"),
 * an attribute and a value belong together only inside one of them. English splits at semicolons, colons, dashes
 * and a comma before a coordinating or relative word; Chinese at its clause punctuation (，；：). Pieces too short to
 * state anything stay with their neighbour.
 */
const EN_BREAK =
  /\s*(?:;|:\s|\s[—–]\s|\s-\s|,\s+(?=(?:and|but|while|whereas|although|though|which|who|so|yet)\b))\s*/iu;
const ZH_BREAK = /[，；：,;]/u;
const MIN_CLAUSE: Record<LanguageCode, number> = { en: 16, zh: 5 };

export function clausesOf(sentence: string, language: LanguageCode): string[] {
  const pieces = sentence
    .split(language === 'zh' ? ZH_BREAK : EN_BREAK)
    .map((piece) => piece.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.length - 1;
    if (last >= 0 && ((out[last] as string).length < MIN_CLAUSE[language] || piece.length < MIN_CLAUSE[language]))
      out[last] = `${out[last]} ${piece}`;
    else out.push(piece);
  }
  return out.length > 0 ? out : [sentence];
}
