/** Identifiers such as CT-2024-0193, HIP-3, INV-88412: matched exactly, never stemmed. */
export const IDENTIFIER = /\b[A-Za-z]{2,}(?:-[A-Za-z0-9]+)*-\d+[A-Za-z0-9]*\b/g;

/** The identifiers a text names, upper-cased, each once. */
export const identifiersIn = (text: string): string[] => [
  ...new Set((text.match(IDENTIFIER) ?? []).map((id) => id.toUpperCase())),
];
