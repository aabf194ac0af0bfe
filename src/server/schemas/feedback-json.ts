import { z } from 'zod';
import { FEEDBACK_BOUNDS, FEEDBACK_RATINGS, FEEDBACK_REASONS } from '../../domain/feedback.ts';

/** What rating an answer sends (`POST /v1/runs/{run_id}/feedback`, MCP `rate_answer`): every text is bounded. */
export const rateBodyJson = z
  .object({
    rating: z.enum(FEEDBACK_RATINGS).describe('`up`: the answer was right; `down`: it was not.'),
    reason: z
      .enum(FEEDBACK_REASONS)
      .optional()
      .describe(
        'Why, from a fixed list: incorrect, unsupported (not backed by its evidence), incomplete, irrelevant, outdated, should_have_answered (it refused, but the documents hold the answer), helpful, other.',
      ),
    comment: z
      .string()
      .max(FEEDBACK_BOUNDS.maxCommentChars)
      .optional()
      .describe(`Free text (at most ${FEEDBACK_BOUNDS.maxCommentChars} characters).`),
    correction: z
      .string()
      .max(FEEDBACK_BOUNDS.maxCorrectionChars)
      .optional()
      .describe(
        `The right answer, as the rater would have it (at most ${FEEDBACK_BOUNDS.maxCorrectionChars} characters): an evaluation case exported from this rating expects it.`,
      ),
  })
  .strict();
export type RateBodyJson = z.infer<typeof rateBodyJson>;

/** One rating of a run's answer, with what it rates. */
export const feedbackJson = z
  .object({
    id: z.number().int().describe('Monotonic in creation order; rating again keeps it.'),
    run_id: z.string(),
    thread_id: z.string(),
    agent: z.string().describe('The agent that answered.'),
    user: z.string().describe("Who asked (the run's user)."),
    rater: z.string().describe('Who rated: the asker, or an admin.'),
    rating: z.enum(FEEDBACK_RATINGS),
    reason: z.enum(FEEDBACK_REASONS).nullable(),
    comment: z.string().nullable(),
    correction: z.string().nullable(),
    question: z.string(),
    run_status: z.string().describe('How the rated run ended: `answered` or `refused`.'),
    answer: z
      .string()
      .nullable()
      .describe(
        `The answer as the rater saw it when rating (withheld text stays withheld; cut at ${FEEDBACK_BOUNDS.maxAnswerChars} characters).`,
      ),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict();
export type FeedbackJson = z.infer<typeof feedbackJson>;

/** `GET /v1/runs/{run_id}/feedback`: the caller's own rating of the run, or null. */
export const myFeedbackJson = z.object({ feedback: feedbackJson.nullable() }).strict();

/** `GET /v1/feedback` and `evident feedback list --json`: a page, newest first. */
export const feedbackPageJson = z
  .object({ feedback: z.array(feedbackJson), next_cursor: z.string().nullable() })
  .strict();
export type FeedbackPageJson = z.infer<typeof feedbackPageJson>;
