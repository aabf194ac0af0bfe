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
import type { SqliteConnection } from './connection.ts';

interface WebhookRow {
  run_id: string;
  url: string;
  requester: string;
  event_id: string;
  state: WebhookDeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string;
  claim_owner: string | null;
  claim_expires_at: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
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
  nextAttemptAt: row.next_attempt_at,
  ...(row.claim_owner === null || row.claim_expires_at === null
    ? {}
    : { claim: { owner: row.claim_owner, expiresAt: row.claim_expires_at } }),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
});

/** Records a run start's webhook, in the caller's transaction (the run's insert): both are written, or neither. */
export function insertSqliteRunWebhook(
  conn: SqliteConnection,
  run: { runId: string; webhook?: RunWebhookWrite | undefined },
  now: string,
): void {
  if (!run.webhook) return;
  validateRunWebhook(run.webhook);
  conn
    .stmt(
      `INSERT INTO run_webhooks (run_id, url, requester, event_id, state, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`,
    )
    .run(run.runId, run.webhook.url, requesterJson(run.webhook.requester), run.webhook.eventId, now, now, now);
}

/**
 * Run webhooks on SQLite (table `run_webhooks`). A claim is one UPDATE in an IMMEDIATE transaction, so of several
 * processes on one file each attempt goes to one. Times are ISO strings of the one machine's clock, compared as text.
 */
export function sqliteRunWebhookLog(conn: SqliteConnection): RunWebhookLog {
  const get = (runId: string) => {
    const row = conn.stmt(`SELECT ${COLUMNS} FROM run_webhooks WHERE run_id = ?`).get(runId) as WebhookRow | undefined;
    return row ? toRecord(row) : undefined;
  };
  return {
    async getRunWebhook(runId) {
      conn.assertOpen();
      return conn.guard("read a run's webhook", () => get(runId));
    },

    async claimRunWebhooks(claim, options = {}) {
      conn.assertWritable();
      validateWebhookClaim(claim);
      return conn.guard('claim run webhooks', () => {
        // Most sweeps find nothing due: a read first, so they take no write lock on the file.
        const due = conn
          .stmt(
            `SELECT 1 FROM run_webhooks w JOIN runs r ON r.run_id = w.run_id
             WHERE w.state = 'pending' AND r.status NOT IN ('running', 'pending') AND w.next_attempt_at <= ?
               AND (w.claim_expires_at IS NULL OR w.claim_expires_at <= ?) LIMIT 1`,
          )
          .get(new Date().toISOString(), new Date().toISOString());
        if (!due) return [];
        return conn.immediate(() => {
          const now = new Date();
          const at = now.toISOString();
          const rows = conn
            .stmt(
              `UPDATE run_webhooks SET attempts = attempts + 1, claim_owner = @owner, claim_expires_at = @expires, updated_at = @now
               WHERE run_id IN (
                 SELECT w.run_id FROM run_webhooks w JOIN runs r ON r.run_id = w.run_id
                 WHERE w.state = 'pending' AND r.status NOT IN ('running', 'pending') AND w.next_attempt_at <= @now
                   AND (w.claim_expires_at IS NULL OR w.claim_expires_at <= @now)
                   AND (@runId IS NULL OR w.run_id = @runId)
                 ORDER BY w.next_attempt_at, w.run_id LIMIT @limit)
               RETURNING ${COLUMNS}`,
            )
            .all({
              owner: claim.owner,
              expires: new Date(now.getTime() + claim.ttlMs).toISOString(),
              now: at,
              runId: options.runId ?? null,
              limit: webhookClaimLimit(options.limit),
            }) as WebhookRow[];
          return rows.map(toRecord).sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt));
        });
      });
    },

    async recordWebhookAttempt(runId, owner, outcome) {
      conn.assertWritable();
      const row = webhookOutcomeRow(outcome);
      return conn.guard("record a webhook's attempt", () => {
        const now = new Date();
        const updated = conn
          .stmt(
            `UPDATE run_webhooks SET state = @state, last_status = @lastStatus, last_error = @lastError,
               next_attempt_at = @next, claim_owner = NULL, claim_expires_at = NULL, updated_at = @now,
               finished_at = @finished
             WHERE run_id = @runId AND claim_owner = @owner AND state = 'pending'
             RETURNING ${COLUMNS}`,
          )
          .get({
            state: row.state,
            lastStatus: row.lastStatus,
            lastError: row.lastError,
            next: new Date(now.getTime() + row.retryInMs).toISOString(),
            now: now.toISOString(),
            finished: row.finished ? now.toISOString() : null,
            runId,
            owner,
          }) as WebhookRow | undefined;
        return updated ? toRecord(updated) : undefined;
      });
    },
  };
}
