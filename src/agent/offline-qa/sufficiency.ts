/**
 * One threshold semantics for every answerability judge. `sufficiency` is the judged probability (0..1) that the
 * evidence states the answer, not merely the topic: the offline path computes it with a logistic model fitted on
 * the dev data; a configured chat model reports its own. Both answer exactly when it reaches SUFFICIENT_AT, so a
 * refusal means the same thing whichever judge made it.
 */
export const SUFFICIENT_AT = 0.5;

export const isSufficient = (sufficiency: number): boolean => sufficiency >= SUFFICIENT_AT;
