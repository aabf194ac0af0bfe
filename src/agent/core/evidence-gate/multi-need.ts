import { normalizeForQuote, type Answer, type Citation } from '../../../domain/answer.ts';
import { answerHead, closingLabel } from './answer-head.ts';
import { refuse, type GateDecision } from './gate-decision.ts';
import type { QuestionView } from './question-view.ts';

/** The gate's reading of one need: its decision, and whether it asks a value of a kind (a date, an amount …). */
export interface NeedVerdict {
  decision: GateDecision;
  typed: boolean;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * A question the run split into needs ("When did the term start, and how long is it?"): each need passes the gate on
 * its own over the same cited evidence. Half an answer to a question asking two things is no answer to it, so a need
 * the evidence does not tie is a refusal that names it as missing. When every need is tied, the answer stands as the
 * producer wrote it if it gives one value per need; one that lists more ("$12,500, $4.20; $48,000" for two needs) is
 * narrowed to the value the evidence ties to each need, each quoting its sentence — never a list of candidates.
 */
export function multiNeed(
  view: QuestionView,
  needs: readonly string[],
  answer: Answer,
  verdictOf: (need: string) => NeedVerdict,
  produced: {
    /** The run computed a value over a table (gated where the table answered). */
    tableValue: boolean;
    /** An offline strategy wrote the answer: its head lists the values of the sentences it quotes. */
    offline: boolean;
    /** The values the answer's head lists. */
    listed: readonly string[];
  },
): GateDecision {
  const { tableValue, offline, listed } = produced;
  let tied = 0;
  const untied: string[] = [];
  const decided: NeedVerdict[] = [];
  // A value computed over a table (gated where the table answered) is the need no sentence states.
  let computed = tableValue;
  let confidence = 1;
  for (const need of needs) {
    const verdict = verdictOf(need);
    if (verdict.decision.verdict !== 'answer') {
      if (computed && verdict.typed) {
        computed = false;
        tied++;
      } else untied.push(need);
      continue;
    }
    tied++;
    decided.push(verdict);
    confidence = Math.min(confidence, verdict.decision.answer.confidence);
  }
  if (tied === 0) return refuse(view, 'the cited evidence does not state it', 'no need tied');
  if (untied.length)
    return refuse(
      view,
      `the cited evidence does not answer ${untied.map((need) => `"${need}"`).join(', ')}`,
      `${tied} of ${needs.length} needs tied`,
    );
  // "2%, 10%; $12,500, $4.20" for two needs lists candidates; "$500K, 38%" for "the AAPL and MSFT positions, and how
  // much of the budget is spent" answers one need twice and the other not; an offline head only lists what its
  // sentences state: the evidence's own value for each need is the answer.
  const listsCandidates = listed.length > needs.length && !tableValue;
  const head = normalizeForQuote(answerHead(answer.answer));
  const unanswered = decided.some(
    ({ decision, typed }) => typed && !head.includes(normalizeForQuote(answerHead(decision.answer.answer))),
  );
  if ((offline || listsCandidates || unanswered) && decided.length === needs.length)
    return {
      verdict: 'answer',
      answer: { ...perNeed(answer, decided), confidence: round2(confidence) },
      reason: `narrowed to one value for each of ${needs.length} needs`,
    };
  if (listsCandidates)
    return refuse(
      view,
      `the answer lists several values (${listed.join('; ')}) for ${needs.length} questions`,
      `candidates: ${listed.length} values for ${needs.length} needs`,
    );
  return {
    verdict: 'answer',
    answer: { ...answer, confidence: round2(confidence * (tied / needs.length)) },
    reason: `${tied} of ${needs.length} needs tied`,
  };
}

/**
 * "$12,500; $4.20; $48,000. <sentence> [1] <sentence> [2]": each need's value (an untyped need's: the sentence that
 * states it), then the sentences that state the values, each once.
 */
function perNeed(answer: Answer, decided: readonly NeedVerdict[]): Answer {
  const citations: Citation[] = [];
  const markerOf = (citation: Citation): number => {
    const at = citations.findIndex((seen) => seen.chunk_id === citation.chunk_id && seen.quote === citation.quote);
    if (at >= 0) return at + 1;
    citations.push(citation);
    return citations.length;
  };
  const parts: string[] = [];
  const quotes: string[] = [];
  for (const { decision, typed } of decided) {
    const citation = typed ? decision.answer.citations[0] : decision.statedBy;
    if (!citation) continue;
    const known = citations.length;
    const marker = markerOf(citation);
    const part = typed ? answerHead(decision.answer.answer) : citation.quote;
    parts.push(part.replace(/[.。]$/u, ''));
    // An untyped need's sentence is already written out as its part: its marker alone points to it.
    if (marker > known) quotes.push(typed ? `${citation.quote} [${marker}]` : `[${marker}]`);
  }
  return {
    ...answer,
    answer: `${[...new Set(parts)].join('; ')}. ${quotes.join(' ')}`.trim() + closingLabel(answer.answer),
    answerable: true,
    citations,
    missing_information: [],
  };
}
