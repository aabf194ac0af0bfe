/** A chunk as the reference ranking sees it: its id, ACL keys, term frequencies and keyword length. */
export interface ReferenceRow {
  id: string;
  acl: string[];
  tf: Map<string, number>;
  length: number;
}

/** FTS5's BM25 over every row, best first (ties by insertion order), the principal filter before the limit, as the store promises it: terms in half the rows or more only when the rest fall short. */
export function bm25Reference(
  rows: ReferenceRow[],
  terms: string[],
  keys: string[] | undefined,
  limit: number,
): string[] {
  const n = rows.length;
  const avgdl = rows.reduce((sum, row) => sum + row.length, 0) / n;
  const df = (term: string) => rows.filter((row) => row.tf.has(term)).length;
  const visible = rows.filter(
    (row) => keys === undefined || row.acl.length === 0 || row.acl.some((key) => keys.includes(key)),
  );
  const rank = (used: string[]) =>
    visible
      .map((row, pk) => ({
        row,
        pk,
        score: used.reduce((sum, term) => {
          const tf = row.tf.get(term) ?? 0;
          const idf = Math.max(Math.log((n - df(term) + 0.5) / (df(term) + 0.5)), 1e-6);
          return tf === 0 ? sum : sum + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * row.length) / avgdl));
        }, 0),
      }))
      .filter((hit) => used.some((term) => hit.row.tf.has(term)))
      .sort((a, b) => b.score - a.score || a.pk - b.pk)
      .slice(0, limit)
      .map((hit) => hit.row.id);
  const informative = terms.filter((term) => df(term) * 2 < n);
  if (informative.length === 0 || informative.length === terms.length) return rank(terms);
  const first = rank(informative);
  return first.length >= limit ? first : rank(terms);
}
