import { z } from 'zod';

const turn = z.object({ role: z.enum(['user', 'assistant']), content: z.string() }).strict();

/** What a case expects of each layer; every field is optional and a missing one is not scored. */
export const expectationSchema = z
  .object({
    /** Strings the standalone (rewritten) question must contain. */
    standalone_contains: z.array(z.string().min(1)).optional(),
    /** Doc ids (paths relative to the corpus folder) that hold the answer: retrieval and rerank are scored on them. */
    relevant_docs: z.array(z.string().min(1)).optional(),
    /** Whether the question can be answered from what this user may see. */
    answerable: z.boolean().optional(),
    /**
     * What the final answer must contain (case-, whitespace- and digit-grouping-insensitive): every entry must be
     * contained, and an entry that is a list names alternatives of which one suffices (`[["B站", "哔哩哔哩"], "2009"]`).
     */
    answer_contains: z.array(z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])).optional(),
    /**
     * Answers the final answer must not be (compared as `answer_contains` compares, whole): an answer users reported
     * wrong must not come back (`evident eval from-feedback` writes it from a thumbs-down without a correction).
     */
    answer_differs_from: z.array(z.string().min(1)).optional(),
    /** Docs the citations should name (citation recall). */
    cite_docs: z.array(z.string().min(1)).optional(),
    tools: z
      .object({
        /** Tools that must be called. */
        expected: z.array(z.string()).optional(),
        /** Tools that must not be called. */
        forbidden: z.array(z.string()).optional(),
        /** Tools that must be called in this order (as a subsequence of the calls). */
        order: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** The rating a case was made from (`evident eval from-feedback`): which run, who rated it how, and what they said. */
export const feedbackSourceSchema = z
  .object({
    kind: z.literal('feedback'),
    run_id: z.string().min(1),
    agent: z.string().min(1),
    rater: z.string().min(1),
    rating: z.enum(['up', 'down']),
    reason: z.string().optional(),
    comment: z.string().optional(),
    correction: z.string().optional(),
    /** The answer that was rated. */
    answer: z.string().optional(),
    rated_at: z.string(),
  })
  .strict();

/** One evaluation case (one JSON object per line of a cases file). */
export const evalCaseSchema = z
  .object({
    id: z.string().min(1),
    /** The user asking; their groups come from the users file (or `groups`). */
    user: z.string().min(1),
    groups: z.array(z.string()).optional(),
    history: z.array(turn).default([]),
    question: z.string().min(1),
    /** Free-form labels (`exact-id`, `follow-up`, `unanswerable`, `permission`, `table`, `zh`, …) for slicing reports. */
    tags: z.array(z.string()).default([]),
    expect: expectationSchema.default({}),
    /** Where the case came from, when it was made from a user's rating (not scored; shown to whoever edits the case). */
    source: feedbackSourceSchema.optional(),
  })
  .strict();

export type EvalCase = z.infer<typeof evalCaseSchema>;
export type Expectation = z.infer<typeof expectationSchema>;
