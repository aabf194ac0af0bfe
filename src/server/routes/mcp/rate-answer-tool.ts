import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { FEEDBACK_BOUNDS, FEEDBACK_RATINGS, FEEDBACK_REASONS } from '../../../domain/feedback.ts';
import { checkIdentifier } from '../../../domain/index.ts';
import { feedbackRecordJson } from '../../../feedback/feedback-json.ts';
import { rateRun } from '../../../feedback/run-feedback.ts';
import type { Logger } from '../../../logging/logger.ts';
import { feedbackJson } from '../../schemas/feedback-json.ts';
import type { McpContext } from './mcp-context.ts';
import { guarded, toolResult } from './tool-result.ts';

/**
 * `rate_answer`: rates the answer of a run the caller may read now (an `ask` of theirs; any run for an admin), as the
 * HTTP route does: one rating per run and caller, replaced when they rate again; a run they may not read is not
 * found, exactly as a missing one. Audited as `feedback.rate` through `mcp`.
 */
export function registerRateAnswerTool(server: McpServer, context: McpContext, logger: Logger): void {
  server.registerTool(
    'rate_answer',
    {
      title: 'Rate an answer',
      description:
        'Rates the answer of a run you may read (the run_id an `ask` returned): up or down, optionally a reason and the right answer (correction). Rating again replaces your previous rating; reported wrong answers become evaluation cases.',
      inputSchema: {
        run_id: z.string().min(1).max(512).describe('The run whose answer is rated (from `ask`).'),
        rating: z.enum(FEEDBACK_RATINGS),
        reason: z.enum(FEEDBACK_REASONS).optional(),
        comment: z.string().max(FEEDBACK_BOUNDS.maxCommentChars).optional(),
        correction: z
          .string()
          .max(FEEDBACK_BOUNDS.maxCorrectionChars)
          .optional()
          .describe('The right answer, if the answer was wrong.'),
      },
      outputSchema: { feedback: feedbackJson },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(logger, 'rate_answer', async () => {
        checkIdentifier('run id', args.run_id);
        const record = await rateRun(
          { store: context.evident.store, runs: context.runs },
          context.principal,
          args.run_id,
          {
            rating: args.rating,
            reason: args.reason,
            comment: args.comment,
            correction: args.correction,
          },
          'mcp',
        );
        return toolResult(`Rated run ${record.runId} ${record.rating}.`, { feedback: feedbackRecordJson(record) });
      }),
  );
}
