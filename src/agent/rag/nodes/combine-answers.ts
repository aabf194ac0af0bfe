import type { Answer } from '../../../domain/answer.ts';
import type { Candidate } from '../../../domain/evidence.ts';
import type { RagNode } from '../rag-deps.ts';

/** The text answer's citation markers ([1], [2] …) shifted past the table answer's own. */
const shiftMarkers = (text: string, by: number): string =>
  text.replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + by}]`);

/**
 * The `both` route's last step: the table's computed answer (with the table lines it cites) and the text's answer
 * (generated and citation-checked, or a refusal) become one answer. Both parts' citations point at the run's
 * evidence, which now holds the table chunks too. A text refusal leaves the table's value answered, with what the
 * text could not tell as missing information.
 */
export const combineAnswers: RagNode = async (state) => {
  const table = state.table_answer;
  const text = state.answer;
  if (!table) return { update: {}, summary: 'no table answer to combine' };
  const known = new Set(state.evidence.map((item) => item.chunk_id));
  const evidence = [...state.evidence, ...state.table_evidence.filter((item) => !known.has(item.chunk_id))];
  const question = state.standalone_question || state.question;
  const candidates: Candidate[] = [
    ...state.candidates,
    ...state.table_evidence.map(
      (item, index): Candidate => ({
        query: question,
        channel: 'fused',
        chunk_id: item.chunk_id,
        rank: index + 1,
        score: item.score,
      }),
    ),
  ];
  const answered = Boolean(text?.answerable);
  const answer: Answer = {
    answer: text
      ? `${table.answer} ${answered ? shiftMarkers(text.answer, table.citations.length) : text.answer}`
      : table.answer,
    answerable: true,
    confidence: answered && text ? Math.min(table.confidence, text.confidence) : table.confidence / 2,
    citations: [...table.citations, ...(answered && text ? text.citations : [])],
    missing_information: answered ? [] : (text?.missing_information ?? []),
  };
  return {
    update: { answer, evidence, candidates, status: 'answered' },
    summary: `table and text answers combined (${answer.citations.length} citations${answered ? '' : '; the text part refused'})`,
  };
};
