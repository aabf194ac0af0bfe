import type { FeedbackRecord } from '../../store/store.ts';
import { evalCaseSchema, type EvalCase, type Expectation } from './eval-case.ts';

/** At most this many key values (numbers, ids) of an answer become `answer_contains` entries. */
const MAX_KEY_VALUES = 5;
/** A correction or answer without key values is expected whole when it is this short. */
const SHORT_ANSWER_CHARS = 80;

/**
 * The values an answer turns on: identifiers with digits (`CT-2024-0193`), amounts and percentages (`48,000`,
 * `97.5%`), dates (`2024-03-01`). A reworded answer keeps them, so a case expects them rather than the wording.
 */
const KEY_VALUE = /\b[A-Za-z]{1,12}(?:-[A-Za-z0-9]+)*-\d[A-Za-z0-9-]*\b|\d{4}-\d{2}-\d{2}|\d+(?:[.,]\d+)*%?/g;

/** Citation markers an answer carries (`[contracts/ct-2024-0193.md#0]`): where it came from, not what it says. */
const CITATION_MARKER = /\[[^\]]*#\d+[^\]]*\]/g;

export function keyValuesOf(text: string): string[] {
  const found = [...text.replace(CITATION_MARKER, ' ').matchAll(KEY_VALUE)].map((match) =>
    match[0].replace(/[.,]$/, ''),
  );
  // A lone one-digit number ("1 month") says little on its own; ids and amounts do.
  return [...new Set(found.filter((value) => value.length > 1))].slice(0, MAX_KEY_VALUES);
}

/** What an answer must contain to be "this answer": its key values, else the whole of a short one, else nothing. */
export function expectedContent(text: string): string[] {
  const trimmed = text.trim();
  const values = keyValuesOf(trimmed);
  if (values.length > 0) return values;
  return trimmed && trimmed.length <= SHORT_ANSWER_CHARS ? [trimmed] : [];
}

/** The groups an ad-hoc principal's id names (`groups:legal,ops`, as `--groups` makes it); undefined for a user's name. */
export const adHocGroups = (user: string): string[] | undefined =>
  user.startsWith('groups:') ? user.slice('groups:'.length).split(',').filter(Boolean) : undefined;

/** A case id from the run and rater: stable across exports, so re-exporting compares results case by case. */
const caseId = (record: FeedbackRecord): string =>
  `feedback-${record.runId}-${record.rater}`.replace(/[^\w.:@-]+/g, '_').slice(0, 200);

/**
 * The expectations a rating sets:
 * - a correction: the answer must contain its key values (the whole of a short one without any) and the question is
 *   answerable;
 * - a thumbs-down without one: the reported answer must not come back (`answer_differs_from`); when the reason says it
 *   was `unsupported` by its evidence (or it answered what it should not have), a refusal is expected instead; when it
 *   says `should_have_answered`, an answer is;
 * - a thumbs-up: the answer given again (its content), or the refusal again when the run refused.
 */
export function expectationsOf(record: FeedbackRecord): Expectation {
  const answered = record.runStatus !== 'refused';
  if (record.correction) {
    const content = expectedContent(record.correction);
    return { answerable: true, ...(content.length ? { answer_contains: content } : {}) };
  }
  if (record.rating === 'down') {
    if (record.reason === 'unsupported' && answered) return { answerable: false };
    const differs = record.answer?.trim() ? { answer_differs_from: [record.answer] } : {};
    if (record.reason === 'should_have_answered' || !answered) return { answerable: true, ...differs };
    return differs;
  }
  if (!answered) return { answerable: false };
  const content = record.answer ? expectedContent(record.answer) : [];
  return { answerable: true, ...(content.length ? { answer_contains: content } : {}) };
}

/**
 * One evaluation case from one rating: the rated run's question, asked as the user who asked it (with `groups`, their
 * groups now, when known), expecting what the rating says (`expectationsOf`), tagged `feedback`, `feedback-up|down`,
 * `feedback-correction` and the agent, with the rating itself in `source`.
 */
export function caseFromFeedback(record: FeedbackRecord, groups?: readonly string[]): EvalCase {
  return evalCaseSchema.parse({
    id: caseId(record),
    user: record.user,
    ...(groups ? { groups: [...groups] } : {}),
    question: record.question,
    tags: [
      'feedback',
      `feedback-${record.rating}`,
      ...(record.correction ? ['feedback-correction'] : []),
      ...(record.reason ? [`reason-${record.reason}`] : []),
      `agent-${record.agent}`,
    ],
    expect: expectationsOf(record),
    source: {
      kind: 'feedback',
      run_id: record.runId,
      agent: record.agent,
      rater: record.rater,
      rating: record.rating,
      ...(record.reason ? { reason: record.reason } : {}),
      ...(record.comment ? { comment: record.comment } : {}),
      ...(record.correction ? { correction: record.correction } : {}),
      ...(record.answer ? { answer: record.answer } : {}),
      rated_at: record.updatedAt,
    },
  });
}
