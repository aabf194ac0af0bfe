/**
 * The FTS5 MATCH expression for analysed query terms: an OR of quoted terms, where a trailing `*` makes a
 * prefix query. Every term is a double-quoted string with `"` doubled, so no term can inject FTS5 syntax
 * (AND, NEAR, column filters, parentheses). Returns undefined when no term has any content.
 */
export function ftsMatchExpression(terms: readonly string[]): string | undefined {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const raw of terms) {
    const prefix = raw.endsWith('*');
    const term = (prefix ? raw.replace(/\*+$/, '') : raw).trim();
    // A term the tokenizer reduces to nothing would make FTS5 reject or ignore the query; drop it here.
    if (!/[\p{L}\p{N}_$.]/u.test(term)) continue;
    const part = `"${term.replaceAll('"', '""')}"${prefix ? '*' : ''}`;
    if (seen.has(part)) continue;
    seen.add(part);
    parts.push(part);
  }
  return parts.length > 0 ? parts.join(' OR ') : undefined;
}
