/**
 * Normalises text for containment checks: NFKC (full-width digits and letters become ASCII), lower case, typographic
 * quotes and dashes unified, digit grouping removed (`48,000` and `48 000` → `48000`, while `1,5` and `3, 4` stay),
 * whitespace runs collapsed. Currency words and symbols are left as they are.
 */
export function normalizeAnswerText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/(\d)[,\u00a0\u202f\u2009 ](?=\d{3}(?!\d))/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether `text` contains `needle` after both are normalised. */
export const containsNormalized = (text: string, needle: string): boolean =>
  normalizeAnswerText(text).includes(normalizeAnswerText(needle));
