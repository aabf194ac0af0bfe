import type { Principal } from '../../domain/index.ts';

/** Where a run's webhook stands: waiting for (another) attempt, delivered (a 2xx), or given up on. */
export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

/** What a run start records of the webhook it names, in the transaction that records the run. */
export interface RunWebhookWrite {
  /** The URL as the guard accepted it (checked again when sent). */
  url: string;
  /** Who asked for it: the payload is what they may read, with their permissions as they are when it is sent. */
  requester: Principal;
  /** One id per webhook, the same on every attempt: receivers deduplicate by it. */
  eventId: string;
}

/** A run's webhook and its delivery so far. */
export interface RunWebhookRecord extends RunWebhookWrite {
  runId: string;
  state: WebhookDeliveryState;
  /** Attempts started: a claim counts one, so a process that dies mid-attempt has used it. */
  attempts: number;
  /** The HTTP status of the last attempt that got a response. */
  lastStatus?: number;
  /** Why the last attempt did not deliver (a public message, never the receiver's response text). */
  lastError?: string;
  /** The next attempt is not claimed before this (ISO). */
  nextAttemptAt: string;
  /** The process making an attempt now and until when its claim holds; absent between attempts. */
  claim?: { owner: string; expiresAt: string };
  createdAt: string;
  updatedAt: string;
  /** When it was delivered or given up on. */
  finishedAt?: string;
}

/** A process's hold on one attempt: the owner (the run manager's lease owner) and how long the attempt may take. */
export interface WebhookClaim {
  owner: string;
  ttlMs: number;
}

/** What an attempt came to, as its claimer records it. */
export interface WebhookAttemptOutcome {
  state: WebhookDeliveryState;
  lastStatus?: number;
  lastError?: string;
  /** With `pending`: the next attempt waits at least this long. */
  retryInMs?: number;
}

/**
 * The webhooks of runs (`webhook` on a run): recorded with the run by `startRun`, delivered once the run has ended by
 * whichever process claims each attempt. A claim is atomic across the processes sharing the store, so one process at
 * a time makes an attempt, and a webhook whose claimer died is claimed again once its claim expires (on the store's
 * clock). Deleting a run (its thread) deletes its webhook.
 */
export interface RunWebhookLog {
  /** The run's webhook, if it named one. */
  getRunWebhook(runId: string): Promise<RunWebhookRecord | undefined>;
  /**
   * Claims webhooks due for an attempt, atomically, and counts the attempt: `pending`, of a run that has ended (not
   * `running` nor `pending`), due (`nextAttemptAt` reached), and not claimed by a live claim. With `runId`, that
   * run's only. Oldest first, at most `limit` (10 unless given). Of several processes claiming, each webhook goes to one.
   */
  claimRunWebhooks(claim: WebhookClaim, options?: { runId?: string; limit?: number }): Promise<RunWebhookRecord[]>;
  /**
   * Records an attempt's outcome and releases the claim; refused (undefined, nothing written) unless `owner` still
   * holds the webhook's claim. `pending` schedules the next attempt `retryInMs` from now.
   */
  recordWebhookAttempt(
    runId: string,
    owner: string,
    outcome: WebhookAttemptOutcome,
  ): Promise<RunWebhookRecord | undefined>;
}
