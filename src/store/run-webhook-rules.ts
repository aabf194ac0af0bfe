import type { Principal } from '../domain/index.ts';
import { ValidationError } from '../errors/index.ts';
import type { RunWebhookWrite, WebhookAttemptOutcome, WebhookClaim } from './ports/run-webhook-log.ts';

/** The longest webhook URL a run records (the guard refuses longer ones first, with its own message). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Claims a `claimRunWebhooks` call takes at most. */
export const MAX_WEBHOOK_CLAIMS = 100;
export const DEFAULT_WEBHOOK_CLAIMS = 10;

/** The longest error text an attempt records. */
const MAX_WEBHOOK_ERROR_LENGTH = 500;

/** A webhook a run start records: a bounded URL, a requester, an event id. */
export function validateRunWebhook(webhook: RunWebhookWrite): void {
  if (!webhook.url || webhook.url.length > MAX_WEBHOOK_URL_LENGTH)
    throw new ValidationError(`A webhook URL has 1 to ${MAX_WEBHOOK_URL_LENGTH} characters.`);
  if (!webhook.requester.id) throw new ValidationError('A webhook needs the principal who asked for it.');
  if (!webhook.eventId || webhook.eventId.length > 100)
    throw new ValidationError('A webhook needs an event id of 1 to 100 characters.');
}

export function validateWebhookClaim(claim: WebhookClaim): void {
  if (!claim.owner) throw new ValidationError('A webhook claim needs a non-empty owner.');
  if (!Number.isSafeInteger(claim.ttlMs) || claim.ttlMs < 1)
    throw new ValidationError('A webhook claim lasts a whole number of milliseconds, at least 1.');
}

/** How many webhooks one claim call takes: the caller's limit within 1..MAX_WEBHOOK_CLAIMS. */
export const webhookClaimLimit = (limit: number | undefined): number =>
  Math.min(Math.max(Math.trunc(limit ?? DEFAULT_WEBHOOK_CLAIMS), 1), MAX_WEBHOOK_CLAIMS);

/** An outcome as it is written: the error text bounded, a retry delay only for `pending` (0 otherwise). */
export function webhookOutcomeRow(outcome: WebhookAttemptOutcome): {
  state: WebhookAttemptOutcome['state'];
  lastStatus: number | null;
  lastError: string | null;
  retryInMs: number;
  finished: boolean;
} {
  const retryInMs = outcome.state === 'pending' ? Math.max(0, Math.trunc(outcome.retryInMs ?? 0)) : 0;
  if (!Number.isSafeInteger(retryInMs)) throw new ValidationError('A webhook retry delay is a whole number of ms.');
  return {
    state: outcome.state,
    lastStatus: outcome.lastStatus ?? null,
    lastError: outcome.lastError === undefined ? null : outcome.lastError.slice(0, MAX_WEBHOOK_ERROR_LENGTH),
    retryInMs,
    finished: outcome.state !== 'pending',
  };
}

/** The requester as stored (JSON) and read back. */
export const requesterJson = (principal: Principal): string =>
  JSON.stringify({ id: principal.id, groups: principal.groups, roles: principal.roles });
export const requesterOf = (json: unknown): Principal => {
  const value = (typeof json === 'string' ? JSON.parse(json) : json) as Principal;
  return { id: value.id, groups: [...(value.groups ?? [])], roles: [...(value.roles ?? [])] };
};
