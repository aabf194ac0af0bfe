import { Hono } from 'hono';
import type { Evident } from '../../evident.ts';
import { feedbackQueryOf } from '../../feedback/feedback-filters.ts';
import { feedbackPageJson, feedbackRecordJson } from '../../feedback/feedback-json.ts';
import {
  listFeedbackPage,
  myFeedback,
  rateRun,
  withdrawFeedback,
  type FeedbackDeps,
} from '../../feedback/run-feedback.ts';
import type { RunManager } from '../../runs/run-manager.ts';
import { requireAdmin } from '../auth.ts';
import { readJson } from '../read-json.ts';
import { rateBodyJson } from '../schemas/feedback-json.ts';
import type { ServerEnv } from '../server-env.ts';

/**
 * Ratings of answers. Any key rates, reads and withdraws its own rating of a run it may read now (its own thread's,
 * or any as an admin); a run it may not read is 404 like a missing one. Everyone's feedback is for admins.
 */
export function feedbackRoutes(evident: Evident, runs: RunManager): Hono<ServerEnv> {
  const deps: FeedbackDeps = { store: evident.store, runs };
  return new Hono<ServerEnv>()
    .post('/runs/:run_id/feedback', async (c) => {
      const body = await readJson(c, rateBodyJson);
      const record = await rateRun(deps, c.get('principal'), c.req.param('run_id'), body, 'http');
      return c.json({ feedback: feedbackRecordJson(record) });
    })
    .get('/runs/:run_id/feedback', async (c) => {
      const record = await myFeedback(deps, c.get('principal'), c.req.param('run_id'));
      return c.json({ feedback: record ? feedbackRecordJson(record) : null });
    })
    .delete('/runs/:run_id/feedback', async (c) => {
      const withdrawn = await withdrawFeedback(deps, c.get('principal'), c.req.param('run_id'), 'http');
      return c.json({ withdrawn });
    })
    .get('/feedback', requireAdmin('read feedback'), async (c) => {
      const page = await listFeedbackPage(deps, c.get('principal'), feedbackQueryOf(c.req.query()));
      return c.json(feedbackPageJson(page));
    });
}
