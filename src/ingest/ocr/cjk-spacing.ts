/** Han, kana and CJK/fullwidth punctuation: written without spaces between them (Hangul is not: Korean spaces words). */
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef`;
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}])[ \\t]+(?=[${CJK}])`, 'gu');

/** Tesseract separates every Chinese character it reads by a space (`中 文`); the text has none there (`中文`). */
export function removeCjkSpaces(text: string): string {
  return text.replace(SPACE_BETWEEN_CJK, '');
}
