import { z } from 'zod';

/** `GET /v1/runs/{run_id}/webhook`: the webhook a run named and how its delivery stands. */
export const runWebhookJson = z
  .object({
    run_id: z.string(),
    url: z.string().describe('The URL the run named, as the guard accepted it.'),
    event_id: z.string().describe('Sent as `X-Evident-Event-Id` on every attempt: receivers deduplicate by it.'),
    requested_by: z.string().describe('Who named the webhook: the payload is what they may read.'),
    state: z
      .enum(['pending', 'delivered', 'failed'])
      .describe('`pending` until a 2xx answer (`delivered`) or until it is given up on (`failed`).'),
    attempts: z.number().int().describe('Attempts started so far.'),
    last_status: z.number().int().nullable().describe("The HTTP status of the last attempt's answer, if it got one."),
    last_error: z.string().nullable().describe('Why the last attempt did not deliver.'),
    next_attempt_at: z.string().nullable().describe('While pending: when the next attempt is due.'),
    created_at: z.string(),
    updated_at: z.string(),
    finished_at: z.string().nullable().describe('When it was delivered or given up on.'),
  })
  .strict();
export type RunWebhookJson = z.infer<typeof runWebhookJson>;
