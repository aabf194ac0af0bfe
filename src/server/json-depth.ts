/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth`, read from the raw text in one pass: parsing
 * deep JSON works, but everything after it (zod, JSON.stringify when it is stored) recurses, and a stack overflow is
 * a 500. Brackets inside strings do not count; the text need not be valid JSON (JSON.parse judges that after).
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * Levels of objects and arrays in a parsed value (a scalar is 0, `{"a": 1}` 1, `{"a": [1]}` 2), counted the way
 * `nestsDeeperThan` counts brackets; it stops looking once it is past `limit`.
 */
export function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(child, limit - 1));
    if (deepest >= limit) break;
  }
  return 1 + deepest;
}
