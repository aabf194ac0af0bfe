import type { Answer } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { Principal } from '../../../domain/index.ts';
import type { ToolCallRecord } from '../../../domain/step.ts';
import { tableQuestionToSql } from '../../table-sql/table-question-to-sql.ts';
import { loadTableSchemas } from '../../table-sql/table-schemas.ts';
import { answerHead, SHORT_HEAD } from '../evidence-gate/answer-head.ts';
import { planFits } from '../evidence-gate/table-fit.ts';
import { answered, describePlan, runTableQuery, tableValue, type TableAnswerDeps } from './table-query-answer.ts';

/** The same computation, made again over the cited tables: what it read and the call that made it. */
export interface TableRecheck {
  call: ToolCallRecord;
  /** What was computed and its value: "the count where Attendance < 15000: 26". */
  summary: string;
}

const normal = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[.。!！]+$/u, '')
    .replace(/\s+/gu, ' ')
    .trim();

const numberOf = (text: string): number | undefined => {
  const bare = text.replace(/,(?=\d{3}\b)/gu, '');
  return /^-?\d+(?:\.\d+)?$/u.test(bare) ? Number(bare) : undefined;
};

/**
 * Whether an answer's value is the one computed: the same text or number, or a short answer that names the computed
 * cell whole ("1983-1984 season" for 1983-1984), a number the same number ("26 games" for 26, never "2012" for 2).
 */
export function agreesWith(head: string, computed: string): boolean {
  const given = normal(head);
  const value = normal(computed);
  if (!given || !value) return false;
  if (given === value) return true;
  const computedNumber = numberOf(value);
  if (computedNumber !== undefined) {
    // "26" or "26 games": the number, followed by words at most.
    const lead = /^(-?[\d,]+(?:\.\d+)?)(?:\s+[\p{L}\s'-]*)?$/u.exec(given)?.[1];
    return lead !== undefined && numberOf(lead) === computedNumber;
  }
  if (given.length > SHORT_HEAD || value.length < 2) return false;
  const at = given.indexOf(value);
  const edge = /[\p{L}\p{N}]/u;
  return at >= 0 && !edge.test(given[at - 1] ?? ' ') && !edge.test(given[at + value.length] ?? ' ');
}

/**
 * A second derivation of an answer about a table. A model's count, difference or "the row before John Holt" is stated
 * by no cited sentence, so the gate's reading of sentences cannot tie it; the value is still evidence-backed when the
 * offline question→SQL plan, made independently of the model over the tables of the documents the answer cites and
 * run as the principal (`table_query`), computes the same value by a plan that fits the question (table-fit: rows
 * counted only for a question about rows, an extreme of a measure the table has). Two derivations agreeing on one
 * value is what the gate asks of a value no sentence states. Undefined when no cited document holds a table, no plan
 * fits, or the values differ.
 */
export async function recheckOverTables(
  question: string,
  answer: Answer,
  cited: readonly Evidence[],
  principal: Principal,
  deps: Pick<TableAnswerDeps, 'store' | 'tableQuery'>,
): Promise<TableRecheck | undefined> {
  const head = answerHead(answer.answer);
  const docs = new Set(cited.map((chunk) => chunk.doc_id));
  if (!head || docs.size === 0) return undefined;
  const tables = await loadTableSchemas(deps.store, principal, (table) => docs.has(table.docId));
  if (tables.length === 0) return undefined;
  const plan = tableQuestionToSql(question, tables, { dialect: deps.store.sqlDialect });
  if (
    !plan ||
    !planFits(
      question,
      plan,
      tables.find((table) => table.sqlName === plan.table),
    ).fits
  )
    return undefined;
  const { call, output } = await runTableQuery(plan.sql, deps.tableQuery, principal);
  if (!answered(output)) return undefined;
  const value = tableValue(output, plan);
  if (!agreesWith(head, value)) return undefined;
  return { call, summary: `the ${describePlan(plan)}: ${value}` };
}
