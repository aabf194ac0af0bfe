/**
 * The part of an answer that gives its value: the text before its first citation marker (or its first sentence),
 * without the labels Evident appends. "800M words, 2,500M words. For the pre-training corpus … [1]" → "800M words,
 * 2,500M words".
 */
const LABEL = /\s*\((?:offline|Offline answer|Answer quoted|SQL from)[^)]*\)\s*/gu;

/** Evident's closing label of an answer (offline, model fallback), kept when the gate narrows the answer. */
export function closingLabel(answer: string): string {
  const found = [...answer.matchAll(LABEL)].at(-1);
  return found && found.index + found[0].length === answer.length ? ` ${found[0].trim()}` : '';
}

export function answerHead(answer: string): string {
  const text = answer.replace(LABEL, ' ').trim();
  const marker = text.search(/\[\d+\]/u);
  const beforeMarker = marker >= 0 ? text.slice(0, marker) : text;
  const firstSentence = /^(.+?[.!?。！？])(?:\s|$)/su.exec(beforeMarker)?.[1];
  return (firstSentence ?? beforeMarker).trim();
}

/** Segments of a head that reads as a list ("a, b; c"): a candidate list has several, a sentence one. */
export function listedValues(head: string): string[] {
  const parts = head
    .replace(/[.。]$/u, '')
    .split(/(?<!\d),|,(?!\d)|[;；、，]|\s+or\s+/u)
    .map((part) => part.trim())
    .filter(Boolean);
  const short = parts.every((part) => part.split(/\s+/u).length <= 4);
  return parts.length > 1 && short ? parts : [head];
}
