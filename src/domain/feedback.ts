/** How a user rated an answer. */
export const FEEDBACK_RATINGS = ['up', 'down'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/**
 * Why, from a short fixed list (free text goes in `comment`): the answer was wrong (`incorrect`), not backed by the
 * evidence it cited (`unsupported`), left something out (`incomplete`), did not answer the question (`irrelevant`),
 * was true once but no longer (`outdated`), refused although the documents hold the answer (`should_have_answered`),
 * or was right and useful (`helpful`); `other` for anything else.
 */
export const FEEDBACK_REASONS = [
  'incorrect',
  'unsupported',
  'incomplete',
  'irrelevant',
  'outdated',
  'should_have_answered',
  'helpful',
  'other',
] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];

/** The bounds every feedback write is held to, whichever surface it came through. */
export const FEEDBACK_BOUNDS = {
  /** A free-text comment on the rating. */
  maxCommentChars: 2_000,
  /** The right answer, as the rater would have it. */
  maxCorrectionChars: 4_000,
  /** The answer as the rater saw it, kept with the rating (a longer one is cut at this length). */
  maxAnswerChars: 20_000,
  /** Run ids and user names, as stored elsewhere. */
  maxIdChars: 512,
} as const;
