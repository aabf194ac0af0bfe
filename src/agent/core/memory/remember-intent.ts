/** "Remember that …", "please note that …", "keep in mind: …" — the request, then the fact to keep. */
const REMEMBER =
  /^\s*(?:(?:please|pls|can you|could you|would you)[,\s]+)?(?:remember|note|make a note|keep in mind|don't forget|do not forget)(?:\s+(?:that|this))?\s*[:,-]?\s+(.+?)\s*$/is;

/**
 * The fact a question asks to remember, or undefined when it asks something else. Deterministic, so the graph takes
 * the same path with and without a chat model; the save itself still needs an approval.
 */
export function memoryToSave(question: string): string | undefined {
  const match = REMEMBER.exec(question);
  const fact = match?.[1]
    ?.replace(/[\s.!]+$/u, '')
    .replace(/\?$/u, '')
    .trim();
  if (!fact || fact.length < 3 || /^(that|this)$/i.test(fact)) return undefined;
  return fact.charAt(0).toUpperCase() + fact.slice(1);
}
