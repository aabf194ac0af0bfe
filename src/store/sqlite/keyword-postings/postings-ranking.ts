import type { SearchTerm } from '../../search-terms.ts';
import type { SqliteConnection } from '../connection.ts';
import type { KeywordRow } from '../keyword-ranking.ts';
import type { TermStats } from '../term-stats.ts';
import { type RankingCounters, rankBlockMax } from './block-max-ranking.ts';
import { type StoredBlocks, TermList } from './term-lists.ts';
import { queryToken } from './tokens.ts';

/**
 * The `k` best chunks the ACL keys let through, ranked by FTS5's bm25() over the terms, from the store's own postings
 * (block-max MaxScore, `block-max-ranking.ts`): the same chunks, order and scores as `rankKeywords` over `chunk_fts`.
 * Undefined when the postings cannot answer: a prefix term, or a term FTS5 splits into a phrase of several tokens.
 * The principal's documents are read first (cached per store generation) and every other chunk is passed over
 * before it is scored. Runs inside the caller's read transaction.
 */
export function rankPostings(
  conn: SqliteConnection,
  termStats: TermStats,
  terms: readonly SearchTerm[],
  keys: readonly string[] | undefined,
  k: number,
  counters?: RankingCounters,
): KeywordRow[] | undefined {
  const tokens: string[] = [];
  for (const term of terms) {
    const token = term.prefix ? undefined : queryToken(term.term);
    if (token === undefined) return undefined;
    tokens.push(token);
  }
  const corpus = termStats.corpus();
  if (corpus.rows === 0) return [];
  const generation = conn.generation();
  const stored: StoredBlocks[] = [];
  const phrases: number[] = [];
  const listOfToken = new Map<string, number>();
  terms.forEach((term, i) => {
    const token = tokens[i] as string;
    let list = listOfToken.get(token);
    if (list === undefined) {
      const blocks = termStats.blocks.read(conn, generation, token);
      // A term without postings adds nothing to any score.
      list = blocks.data.length === 0 ? -1 : stored.length;
      listOfToken.set(token, list);
      if (list >= 0) stored.push(blocks);
    }
    if (list < 0) return;
    for (let c = 0; c < term.count; c++) phrases.push(list);
  });
  if (stored.length === 0) return [];
  // A term written twice in the query (or two spellings FTS5 folds to one token) weighs its phrases together.
  const counts = new Int32Array(stored.length);
  for (const list of phrases) counts[list] = (counts[list] as number) + 1;
  const weighted = stored.map((blocks, i) => new TermList(blocks, counts[i] as number, corpus));
  const visible = keys === undefined ? undefined : termStats.visibleDocuments(keys);
  const isVisible = visible && ((doc: number) => visible[doc] === 1);
  const top = rankBlockMax(weighted, phrases, corpus.avgLength, k, isVisible, counters);
  if (top.length === 0) return [];
  const ids = new Map(
    (
      conn
        .stmt('SELECT pk, id FROM chunks WHERE pk IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(top.map((row) => row.pk))) as { pk: number; id: string }[]
    ).map((row) => [row.pk, row.id]),
  );
  return top.flatMap((row) => {
    const chunkId = ids.get(row.pk);
    return chunkId === undefined ? [] : [{ pk: row.pk, chunkId, score: row.score }];
  });
}
