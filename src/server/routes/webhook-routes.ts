import { Hono } from 'hono';
import { NotFoundError } from '../../errors/index.ts';
import { readableThread } from '../../runs/run-access.ts';
import type { RunLog, RunWebhookLog, RunWebhookRecord } from '../../store/store.ts';
import type { RunWebhookJson } from '../schemas/webhook-json.ts';
import type { ServerEnv } from '../server-env.ts';

const webhookJson = (webhook: RunWebhookRecord): RunWebhookJson => ({
  run_id: webhook.runId,
  url: webhook.url,
  event_id: webhook.eventId,
  requested_by: webhook.requester.id,
  state: webhook.state,
  attempts: webhook.attempts,
  last_status: webhook.lastStatus ?? null,
  last_error: webhook.lastError ?? null,
  next_attempt_at: webhook.state === 'pending' ? webhook.nextAttemptAt : null,
  created_at: webhook.createdAt,
  updated_at: webhook.updatedAt,
  finished_at: webhook.finishedAt ?? null,
});

/**
 * A run's webhook and its delivery (attempts, last status, delivered or failed), for whoever may read the run (its
 * thread's owner, or an admin): anyone else, and a run that named no webhook, get `not_found`.
 */
export function webhookRoutes(store: Pick<RunLog, 'getRun' | 'getThread'> & RunWebhookLog): Hono<ServerEnv> {
  return new Hono<ServerEnv>().get('/runs/:run_id/webhook', async (c) => {
    const runId = c.req.param('run_id');
    const run = await store.getRun(runId);
    if (!run) throw new NotFoundError('run', runId);
    await readableThread(store, run.threadId, c.get('principal')).catch(() => {
      throw new NotFoundError('run', runId);
    });
    const webhook = await store.getRunWebhook(runId);
    if (!webhook) throw new NotFoundError('webhook for run', runId, 'The run was started without a webhook.');
    return c.json(webhookJson(webhook));
  });
}
