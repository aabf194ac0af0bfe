import { normalizeForQuote, type Answer, type Citation } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { AnswerType } from '../../../text/language.ts';
import { citedSentences, isTableRow, type CitedSentence } from './cited-reading.ts';
import { narrowedTo, refuse, REGROUND_CHUNKS, type GateDecision } from './gate-decision.ts';
import type { QuestionView } from './question-view.ts';
import { cellGiven, readRows } from './row-answer.ts';

/** The table rows an answer rests on: the sentences it quotes when every one is a row, else none. */
export function rowsAnswered(quoted: readonly CitedSentence[]): readonly CitedSentence[] {
  return quoted.length > 0 && quoted.every((sentence) => isTableRow(sentence.text)) ? quoted : [];
}

/**
 * An offline answer quoted from table rows: the cell of the asked column in a row naming what the question names
 * (narrowed to it when the answer gives more or other text), re-grounded in the best-ranked evidence's rows if need be.
 */
export function rowVerdict(
  view: QuestionView,
  type: AnswerType,
  answer: Answer,
  rows: readonly CitedSentence[],
  head: string,
  input: { evidence: readonly Evidence[]; reground?: boolean },
): GateDecision | undefined {
  // A model read the rows and chose one cell: in a row naming what the question names, that cell is stated there (a
  // first, a most or a next among rows is the model's reading, which the gate cannot recompute). Other model answers
  // are judged as answers quoting sentences are.
  if (!input.reground) {
    const given = cellGiven(view.question, type, rows, head);
    if (!given) return undefined;
    return {
      verdict: 'answer',
      answer: { ...answer, confidence: Math.min(answer.confidence, 0.8) },
      reason: `row: ${given.column}`,
    };
  }
  let reading = readRows(view.question, type, rows, head);
  if (!reading.found) {
    const evidenceRows = citedSentences(input.evidence.slice(0, REGROUND_CHUNKS), view).filter((sentence) =>
      isTableRow(sentence.text),
    );
    const regrounded = readRows(view.question, type, evidenceRows, '');
    if (regrounded.found) reading = regrounded;
  }
  if (!reading.found) return refuse(view, reading.why, reading.reason);
  const citation = quoteOfRow(reading.sentence);
  if (sameValue(head, reading.value))
    return {
      verdict: 'answer',
      answer: { ...answer, confidence: Math.min(answer.confidence, 0.8) },
      reason: `row: ${reading.column}`,
    };
  return narrowedTo(answer, reading.value, citation, 0.6, `row: narrowed to ${reading.column}`);
}

const sameValue = (head: string, value: string): boolean =>
  normalizeForQuote(head.replace(/[.。]+$/u, '')) === normalizeForQuote(value);

/** A citation of one row, quoted as its chunk stores it. */
function quoteOfRow(sentence: CitedSentence): Citation {
  const { chunk } = sentence;
  return {
    chunk_id: chunk.chunk_id,
    doc_id: chunk.doc_id,
    source: chunk.source,
    ...(chunk.page ? { page: chunk.page } : {}),
    quote: sentence.text,
  };
}
