import type { PoolClient } from 'pg';
import type {
  RunWebhookLog,
  RunWebhookRecord,
  RunWebhookWrite,
  WebhookDeliveryState,
} from '../ports/run-webhook-log.ts';
import {
  requesterJson,
  requesterOf,
  validateRunWebhook,
  validateWebhookClaim,
  webhookClaimLimit,
  webhookOutcomeRow,
} from '../run-webhook-rules.ts';
import type { PostgresPool } from './pool.ts';

interface WebhookRow {
  run_id: string;
  url: string;
  requester: unknown;
  event_id: string;
  state: WebhookDeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date;
  claim_owner: string | null;
  claim_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const COLUMNS =
  'run_id, url, requester, event_id, state, attempts, last_status, last_error, next_attempt_at, claim_owner, claim_expires_at, created_at, updated_at, finished_at';

const toRecord = (row: WebhookRow): RunWebhookRecord => ({
  runId: row.run_id,
  url: row.url,
  requester: requesterOf(row.requester),
  eventId: row.event_id,
  state: row.state,
  attempts: row.attempts,
  ...(row.last_status === null ? {} : { lastStatus: row.last_status }),
  ...(row.last_error === null ? {} : { lastError: row.last_error }),
  nextAttemptAt: row.next_attempt_at.toISOString(),
  ...(row.claim_owner === null || row.claim_expires_at === null
    ? {}
    : { claim: { owner: row.claim_owner, expiresAt: row.claim_expires_at.toISOString() } }),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  ...(row.finished_at === null ? {} : { finishedAt: row.finished_at.toISOString() }),
});

const afterMs = (param: string) => `now() + ${param} * interval '1 millisecond'`;

/** Records a run start's webhook, in the caller's transaction (the run's insert): both are written, or neither. */
export async function insertPostgresRunWebhook(
  c: PoolClient,
  run: { runId: string; webhook?: RunWebhookWrite | undefined },
): Promise<void> {
  if (!run.webhook) return;
  validateRunWebhook(run.webhook);
  await c.query(
    `INSERT INTO run_webhooks (run_id, url, requester, event_id, state, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'pending', now(), now(), now())`,
    [run.runId, run.webhook.url, requesterJson(run.webhook.requester), run.webhook.eventId],
  );
}

/**
 * Run webhooks on Postgres (table `run_webhooks`), on the database's clock. A claim locks the rows it takes and skips
 * rows another claimer has locked, so of several servers claiming at once each attempt goes to one.
 */
export function postgresRunWebhookLog(pool: PostgresPool): RunWebhookLog {
  return {
    async getRunWebhook(runId) {
      return pool.withClient("read a run's webhook", async (c) => {
        const row = (await c.query<WebhookRow>(`SELECT ${COLUMNS} FROM run_webhooks WHERE run_id = $1`, [runId]))
          .rows[0];
        return row ? toRecord(row) : undefined;
      });
    },

    async claimRunWebhooks(claim, options = {}) {
      validateWebhookClaim(claim);
      return pool.withClient('claim run webhooks', async (c) => {
        const rows = (
          await c.query<WebhookRow>(
            `UPDATE run_webhooks SET attempts = attempts + 1, claim_owner = $1, claim_expires_at = ${afterMs('$2')}, updated_at = now()
             WHERE run_id IN (
               SELECT w.run_id FROM run_webhooks w JOIN runs r ON r.run_id = w.run_id
               WHERE w.state = 'pending' AND r.status NOT IN ('running', 'pending') AND w.next_attempt_at <= now()
                 AND (w.claim_expires_at IS NULL OR w.claim_expires_at <= now())
                 AND ($3::text IS NULL OR w.run_id = $3)
               ORDER BY w.next_attempt_at, w.run_id LIMIT $4
               FOR UPDATE OF w SKIP LOCKED)
             RETURNING ${COLUMNS}`,
            [claim.owner, claim.ttlMs, options.runId ?? null, webhookClaimLimit(options.limit)],
          )
        ).rows;
        return rows.map(toRecord).sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt));
      });
    },

    async recordWebhookAttempt(runId, owner, outcome) {
      const row = webhookOutcomeRow(outcome);
      return pool.withClient("record a webhook's attempt", async (c) => {
        const updated = (
          await c.query<WebhookRow>(
            `UPDATE run_webhooks SET state = $3, last_status = $4, last_error = $5, next_attempt_at = ${afterMs('$6')},
               claim_owner = NULL, claim_expires_at = NULL, updated_at = now(),
               finished_at = CASE WHEN $7::boolean THEN now() ELSE NULL END
             WHERE run_id = $1 AND claim_owner = $2 AND state = 'pending'
             RETURNING ${COLUMNS}`,
            [runId, owner, row.state, row.lastStatus, row.lastError, row.retryInMs, row.finished],
          )
        ).rows[0];
        return updated ? toRecord(updated) : undefined;
      });
    },
  };
}
