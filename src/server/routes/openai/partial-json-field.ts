/**
 * Reads one top-level string field out of a JSON object that is still being written, token by token: the agents
 * write the answer contract as JSON (structured output), so the answer's words stream as the `answer` field grows.
 * Returns the decoded text of the field so far, or undefined while the field has not begun (or the text is no
 * JSON object). Never throws: a model's malformed output simply yields nothing.
 */
export function partialStringField(text: string, field: string): string | undefined {
  let i = text.indexOf('{');
  if (i < 0) return undefined;
  let depth = 0;
  let expectKey = false;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      const read = readString(text, i);
      // An unfinished key or value of another field: the field asked for has not begun.
      if (!read.complete) return undefined;
      if (depth === 1 && expectKey) {
        const colon = skipSpace(text, read.end);
        if (text[colon] !== ':') return undefined;
        const valueStart = skipSpace(text, colon + 1);
        if (read.value === field) return text[valueStart] === '"' ? readString(text, valueStart).value : undefined;
        expectKey = false;
        i = valueStart;
        continue;
      }
      i = read.end;
      continue;
    }
    if (ch === '{' || ch === '[') {
      depth += 1;
      if (depth === 1) expectKey = ch === '{';
    } else if (ch === '}' || ch === ']') {
      depth -= 1;
      if (depth <= 0) return undefined;
    } else if (ch === ',' && depth === 1) {
      expectKey = true;
    }
    i += 1;
  }
  return undefined;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A JSON string from its opening quote at `start`: decoded so far, where it ends, and whether it closed. */
function readString(text: string, start: number): { value: string; end: number; complete: boolean } {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"') return { value, end: i + 1, complete: true };
    if (ch !== '\\') {
      value += ch;
      i += 1;
      continue;
    }
    const escaped = text[i + 1];
    if (escaped === undefined) break;
    if (escaped === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (hex.length < 4) break;
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return { value, end: i, complete: false };
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 6;
      continue;
    }
    const decoded = ESCAPES[escaped];
    if (decoded === undefined) return { value, end: i, complete: false };
    value += decoded;
    i += 2;
  }
  // Unfinished: hold back half a surrogate pair, whose other half is still to come.
  return { value: /[\uD800-\uDBFF]$/.test(value) ? value.slice(0, -1) : value, end: text.length, complete: false };
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] as string)) i += 1;
  return i;
}
