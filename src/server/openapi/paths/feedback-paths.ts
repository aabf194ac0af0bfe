import { z } from 'zod';
import { DEFAULT_FEEDBACK_LIMIT, MAX_FEEDBACK_LIMIT } from '../../../feedback/feedback-filters.ts';
import { FEEDBACK_RATINGS } from '../../../store/store.ts';
import { feedbackJson, feedbackPageJson, myFeedbackJson, rateBodyJson } from '../../schemas/feedback-json.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'query' as const,
  required: false,
  description,
  schema,
});

const runId = pathParam('run_id', 'The run whose answer is rated.');
const notReadable = {
  description:
    'No run with this id that you may read now (the same answer whether it does not exist or is in a thread that is not yours).',
  json: ERROR_SCHEMA_REF,
};

export const feedbackPaths = pathGroup(
  {
    name: 'Feedback',
    description:
      "Ratings of answers (up or down, a reason, a correction): each user rates the runs they may read; admins list everyone's, and `evident eval from-feedback` turns them into evaluation cases.",
  },
  {
    '/v1/runs/{run_id}/feedback': {
      post: operation({
        id: 'rateRun',
        summary: "Rate a run's answer",
        description:
          "Records the key's rating of a run it may read now (a run of its own thread; any run for an admin), replacing its previous rating of that run. The answer as the rater sees it now is kept with the rating. Audited as `feedback.rate`.",
        access: 'key',
        params: [runId],
        json: rateBodyJson,
        responses: {
          200: { description: 'The rating as stored.', json: z.object({ feedback: feedbackJson }).strict() },
          404: notReadable,
          409: {
            description: 'The run has no answer to rate yet, or failed (`run_not_finished`).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
      get: operation({
        id: 'getMyFeedback',
        summary: 'Read your rating of a run',
        access: 'key',
        params: [runId],
        responses: {
          200: { description: "The key's rating of the run, or null.", json: myFeedbackJson },
          404: notReadable,
        },
      }),
      delete: operation({
        id: 'withdrawFeedback',
        summary: 'Withdraw your rating of a run',
        description: 'Audited as `feedback.withdraw` when there was a rating.',
        access: 'key',
        params: [runId],
        responses: {
          200: {
            description: 'Whether a rating was withdrawn.',
            json: z.object({ withdrawn: z.boolean() }).strict(),
          },
          404: notReadable,
        },
      }),
    },
    '/v1/feedback': {
      get: operation({
        id: 'listFeedback',
        summary: "List everyone's feedback",
        description:
          'Newest first, one page at a time: pass `next_cursor` as `cursor` for the next (older) page. An unknown or malformed filter is `invalid_input`.',
        access: 'admin',
        params: [
          query('agent', 'Only ratings of this agent’s answers.'),
          query('rating', 'Only up or only down.', { type: 'string', enum: [...FEEDBACK_RATINGS] }),
          query('user', 'Only this rater’s ratings.'),
          query('run_id', 'Only ratings of this run.'),
          query('since', 'Rated (or last re-rated) from this ISO time or date, inclusive.'),
          query('until', 'Rated (or last re-rated) up to this ISO time or date, inclusive.'),
          query('has_correction', '`true`: only ratings with a correction; `false`: only those without.', {
            type: 'string',
            enum: ['true', 'false'],
          }),
          query('limit', `Ratings per page (default ${DEFAULT_FEEDBACK_LIMIT}, at most ${MAX_FEEDBACK_LIMIT}).`, {
            type: 'integer',
          }),
          query('cursor', 'The `next_cursor` of the previous page.'),
        ],
        responses: { 200: { description: 'A page of ratings.', json: feedbackPageJson } },
      }),
    },
  },
);
