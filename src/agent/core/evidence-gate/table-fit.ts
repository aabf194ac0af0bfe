import { analyzeQuery } from '../../../text/analyzer.ts';
import type { Answer } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { ToolCallRecord } from '../../../domain/step.ts';
import { gateAnswer, type GateThresholds } from './evidence-gate.ts';
import type { TableSqlPlan } from '../../table-sql/table-question-to-sql.ts';
import type { TableSchema } from '../../table-sql/table-schemas.ts';
import { isTableRow } from './cited-reading.ts';
import { questionView } from './question-view.ts';

/** Nouns that name a table's rows themselves. */
const ROW_NOUNS = new Set(analyzeQuery('rows records entries items lines times'));

/**
 * Whether a table plan's computation answers the question. A count of rows answers only a question that counts rows:
 * "How many orders …" over a table of orders, "how many times …", "how many rows …"; "How many layers does BERT-BASE
 * have?" over a table of scores counts rows that are not layers. Other shapes are checked at the end of the run,
 * where the gate reads the cells the answer cites.
 */
export function planFits(
  question: string,
  plan: TableSqlPlan,
  table: TableSchema | undefined,
): { fits: boolean; why: string } {
  if (plan.aggregate !== 'count') return { fits: true, why: '' };
  const counted = questionView(question).counted;
  if (counted.length === 0) return { fits: true, why: '' };
  const rowTerms = new Set(
    analyzeQuery(
      [table?.title ?? '', table?.sqlName.replace(/_/g, ' ') ?? '', ...(table?.columns.map((c) => c.name) ?? [])].join(
        ' ',
      ),
    ),
  );
  const fits = counted.some((term) => ROW_NOUNS.has(term) || rowTerms.has(term));
  return fits ? { fits, why: '' } : { fits, why: `counting rows of ${plan.table} does not count ${counted.join(' ')}` };
}

const AGGREGATE = /\b(?:count|sum|avg|total)\s*\(|\)\s*-\s*\(/iu;

/**
 * Whether the answer's value was computed by SQL rather than read: a successful `table_query` of the run aggregated
 * (COUNT, SUM, AVG, a difference). A computed value is stated by no sentence; the gate checks it otherwise.
 */
export function computedByTable(calls: readonly ToolCallRecord[], cited: readonly { text: string }[] = []): boolean {
  const last = [...calls].reverse().find((call) => call.name === 'table_query' && call.ok);
  if (last === undefined || !AGGREGATE.test(String(last.arguments.sql ?? ''))) return false;
  // The answer must rest on table rows ("order_id: A-1007 | customer: Hooli"), not on text retrieved after the table.
  return cited.every((chunk) => chunk.text.split('\n').some(isTableRow));
}

/**
 * The columns the select list of the run's last successful `table_query` reads (`SELECT "MNLI-(m/mm)" AS result …`
 * reads MNLI-(m/mm); `COUNT(*)` reads none): what a computed value is a value of.
 */
export function selectedColumns(calls: readonly ToolCallRecord[]): string[] {
  const last = [...calls].reverse().find((call) => call.name === 'table_query' && call.ok);
  const select = /^\s*SELECT\s+(?:DISTINCT\s+)?([\s\S]*?)\s+FROM\s/i.exec(String(last?.arguments.sql ?? ''))?.[1];
  if (!select) return [];
  const columns: string[] = [];
  for (const match of select.matchAll(/(\bAS\s+)?"((?:[^"]|"")+)"/gi))
    if (!match[1]) columns.push(match[2]!.replaceAll('""', '"'));
  return columns;
}

/**
 * Why the evidence gate refuses a table's answer where the table route made it (rag, controllable and react alike), or
 * `undefined` when it passes: a refused table answer sends the run to the documents' text instead of ending it.
 */
export function tableAnswerRefused(
  question: string,
  answer: Answer,
  evidence: readonly Evidence[],
  calls: readonly ToolCallRecord[],
  thresholds?: GateThresholds,
): string | undefined {
  const gated = gateAnswer({
    question,
    answer,
    evidence,
    computed: computedByTable(calls),
    computedFrom: selectedColumns(calls),
    ...(thresholds ? { thresholds } : {}),
  });
  return gated.verdict === 'refuse' ? gated.reason : undefined;
}
