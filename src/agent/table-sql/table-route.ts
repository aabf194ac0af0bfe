import type { Principal } from '../../domain/index.ts';
import type { DocumentStore } from '../../store/store.ts';
import { analyzeQuery } from '../../text/analyzer.ts';
import { tableQuestionToSql, type TableSqlPlan } from './table-question-to-sql.ts';
import { loadTableSchemas, type TableSchema } from './table-schemas.ts';
import { CUE_WORDS } from './table-question-to-sql-text.ts';

/** Where an offline run takes a question that the question→SQL strategy could plan over a table. */
export interface TableRouteDecision {
  route: 'table' | 'retrieve';
  /** The plan, when the route is the table. */
  plan?: TableSqlPlan;
  /** The table the plan queries, as the principal sees it. */
  table?: TableSchema;
  reason: string;
}

/** Passages of the documents' text compared with the table (the best of them decides). */
const TEXT_PASSAGES = 5;
/** Question words a passage must explain beyond what the table explains for the text to win. */
const TEXT_MARGIN = 2;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Analyzer terms of the words a table question is phrased with ("what", "total", "average"): no part of its focus. */
const CUE_TERMS = new Set(
  [...CUE_WORDS, 'sum', 'average', 'mean', 'maximum', 'minimum', 'count', 'value', 'per'].flatMap((word) =>
    analyzeQuery(word),
  ),
);
/** An identifier written in the question: a compound term of the analyzer ("order.shipped", "v2_orders_id_cancel"). */
const compound = (term: string): boolean => /[._]/.test(term);

/** The question's focus terms: its analyzer terms without the cue words (CJK terms are read by the planner itself). */
function focusTerms(question: string): string[] {
  return analyzeQuery(question).filter((term) => !CUE_TERMS.has(term) && !CJK.test(term) && term.length > 1);
}

/** Every analyzer term of a table's title, column names and (read) cells. */
function tableTerms(table: TableSchema): Set<string> {
  const text = [
    table.title,
    table.description ?? '',
    ...table.columns.map((column) => column.name),
    ...Object.values(table.values ?? {}).flat(),
  ].join('\n');
  return new Set(analyzeQuery(text));
}

/**
 * The offline routing of a question a table could answer, as a measured decision rather than a match of a few words:
 * the question→SQL strategy plans it, and the best passages of the documents' text (keyword search as the principal,
 * table documents left out) are read against the same question. The text wins when its best passage explains an
 * identifier the question writes that no table holds (`/v2/orders/{id}/cancel`, `order.shipped`), or at least two
 * more of the question's focus words than the table does; otherwise the table answers. A question every focus word
 * of which the table explains goes to the table without searching.
 */
export async function offlineTableRoute(
  question: string,
  principal: Principal,
  store: DocumentStore,
): Promise<TableRouteDecision> {
  const tables = await store.listTables(principal);
  if (tables.length === 0) return { route: 'retrieve', reason: 'no tables' };
  const schemas = await loadTableSchemas(store, principal);
  const plan = tableQuestionToSql(question, schemas, { dialect: store.sqlDialect });
  if (!plan) return { route: 'retrieve', reason: 'no SQL plan' };
  const table = schemas.find((schema) => schema.sqlName === plan.table) as TableSchema;
  const focus = focusTerms(question);
  const held = tableTerms(table);
  const unheld = focus.filter((term) => !held.has(term));
  const planned = { route: 'table' as const, plan, table, reason: `${plan.aggregate} over ${plan.table}` };
  if (unheld.length === 0) return planned;

  const tableDocs = new Set(tables.map((record) => record.docId));
  const hits = await store.keywordSearch(focus, principal, TEXT_PASSAGES + tables.length);
  const ids = hits.map((hit) => hit.chunkId).filter((id) => !tableDocs.has(id.slice(0, id.lastIndexOf('#'))));
  const chunks = ids.length ? await store.getChunks(ids.slice(0, TEXT_PASSAGES), principal) : [];
  let best: { chunkId: string; covered: string[] } | undefined;
  for (const chunk of chunks) {
    if (tableDocs.has(chunk.docId)) continue;
    const terms = new Set(analyzeQuery(chunk.text));
    const covered = focus.filter((term) => terms.has(term));
    if (!best || covered.length > best.covered.length) best = { chunkId: chunk.id, covered };
  }
  if (!best) return planned;
  const tableCovered = focus.length - unheld.length;
  const identifier = unheld.find((term) => compound(term) && best?.covered.includes(term));
  if (identifier)
    return { route: 'retrieve', reason: `the text (${best.chunkId}) names ${identifier}, which no table holds` };
  if (best.covered.length >= tableCovered + TEXT_MARGIN) {
    return {
      route: 'retrieve',
      reason: `the text (${best.chunkId}) explains ${best.covered.length} of the question's ${focus.length} focus words, the table ${tableCovered}`,
    };
  }
  return {
    ...planned,
    reason: `${planned.reason}; the best passage explains ${best.covered.length} of ${focus.length} focus words, the table ${tableCovered}`,
  };
}
