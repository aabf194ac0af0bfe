import { en } from './en/en.ts';
import type { LanguageCode, LanguageModule } from './language.ts';
import { zh } from './zh/zh.ts';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const LETTER = /\p{L}/gu;

/**
 * The language a text is written in, for choosing its module: Chinese when CJK characters are at least a fifth of
 * its letters (a Chinese sentence keeps Latin names and identifiers, `使用HIP-3协议`), else English.
 */
export function languageOf(text: string): LanguageCode {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return 'en';
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk * 5 >= letters ? 'zh' : 'en';
}

const MODULES: Record<LanguageCode, LanguageModule> = { en, zh };

export const languageModule = (code: LanguageCode): LanguageModule => MODULES[code];

/** The module for a text's own language. */
export const moduleFor = (text: string): LanguageModule => languageModule(languageOf(text));
