import { randomUUID } from 'node:crypto';
import type { WebhooksConfig } from '../../config/webhooks-schema.ts';
import { isAdmin, type Principal } from '../../domain/index.ts';
import { WebhooksDisabledError } from '../../errors/index.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import type { AuditLog, DocumentStore, PrincipalStore, RunLog } from '../../store/store.ts';
import type {
  RunWebhookLog,
  RunWebhookRecord,
  RunWebhookWrite,
  WebhookAttemptOutcome,
} from '../../store/ports/run-webhook-log.ts';
import { currentPrincipal } from '../current-principal.ts';
import { webhookPayload } from './webhook-payload.ts';
import { postWebhook, type WebhookPostResult } from './webhook-post.ts';
import { signWebhook, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from './webhook-signature.ts';
import { checkWebhookTarget, type Resolver } from './webhook-target.ts';

/** What delivering webhooks reads and writes of the store. */
export type RunWebhookStore = RunWebhookLog &
  Pick<RunLog, 'getRun' | 'getThread' | 'listRunEvents'> &
  Pick<DocumentStore, 'getChunks'> &
  Pick<PrincipalStore, 'getUser'> &
  Pick<AuditLog, 'appendAudit'>;

export interface RunWebhooksDeps {
  store: RunWebhookStore;
  /** The `webhooks` config; without a `secret`, webhooks are refused and this process delivers none. */
  config: WebhooksConfig | undefined;
  /** Who claims attempts: the run manager's lease owner. */
  owner: string;
  /** How often to look for webhooks due (runs that ended elsewhere, attempts a dead process left). */
  sweepMs: number;
  logger?: Logger;
  /** Resolves webhook hosts (tests); the system resolver by default. */
  resolve?: Resolver;
  /** Jitter source (tests); Math.random by default. */
  random?: () => number;
}

/** How long a claim outlives the attempt's own timeout (building the payload, recording the outcome). */
const CLAIM_MARGIN_MS = 15_000;
/** Attempts one process makes at once; more wait for the next sweep. */
const MAX_IN_FLIGHT = 16;

/** The wait before attempt `attempt + 1`: doubling from `initialBackoffMs`, capped, with jitter (half to all of it). */
export function backoffMs(
  attempt: number,
  config: Pick<WebhooksConfig, 'initialBackoffMs' | 'maxBackoffMs'>,
  random: () => number = Math.random,
  retryAfter?: number,
): number {
  const ceiling = Math.min(config.maxBackoffMs, config.initialBackoffMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  return retryAfter === undefined ? jittered : Math.min(config.maxBackoffMs, Math.max(jittered, retryAfter));
}

/**
 * Checks a webhook URL as a run start would (`webhooks_disabled` without a secret; the SSRF guard with the host's
 * resolved addresses), for what records one to use later (a cron's payload, checked again at every tick).
 */
export async function checkRequestedWebhook(
  config: WebhooksConfig | undefined,
  url: string,
  resolve?: Resolver,
): Promise<URL> {
  if (!config?.secret) throw new WebhooksDisabledError();
  return checkWebhookTarget(url, config, resolve);
}

/** Whether an answer is worth another attempt: no answer, a timeout, 408, 429 or a server error. */
const retryable = (result: WebhookPostResult): boolean =>
  result.kind === 'network' ||
  (result.kind === 'response' && (result.status === 408 || result.status === 429 || result.status >= 500));

/**
 * Webhooks of runs (`webhook` on a run, LangGraph's way): checked when the run starts and recorded with it; POSTed,
 * signed (HMAC-SHA256 with `webhooks.secret`), once the run has ended, by whichever process claims each attempt in the
 * store — the one that ended the run at once, any other on its next sweep — and retried with backoff on network
 * errors, timeouts, 408, 429 and 5xx up to `maxAttempts`. The outcome is on the run (`GET /v1/runs/{id}/webhook`) and
 * in the audit log (`webhook.delivery`).
 */
export class RunWebhooks {
  private readonly logger: Logger;
  private readonly random: () => number;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly stopping = new AbortController();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(private readonly deps: RunWebhooksDeps) {
    this.logger = deps.logger ?? silentLogger;
    this.random = deps.random ?? Math.random;
  }

  /** The config when webhooks are on here (a secret is set). */
  private get enabled(): (WebhooksConfig & { secret: string }) | undefined {
    const config = this.deps.config;
    return config?.secret ? (config as WebhooksConfig & { secret: string }) : undefined;
  }

  /**
   * Checks the webhook a run asks for (the URL, its host against `allowedHosts`, every address it resolves to) and
   * returns what the run's start records. Refused with `webhooks_disabled` without a secret, and with a
   * ValidationError naming the setting that would allow a refused target.
   */
  async admit(url: string, requester: Principal): Promise<RunWebhookWrite> {
    const checked = await checkRequestedWebhook(this.deps.config, url, this.deps.resolve);
    return {
      url: checked.href,
      requester: { id: requester.id, groups: [...requester.groups], roles: [...requester.roles] },
      eventId: randomUUID(),
    };
  }

  /** The webhook a run request names (if any), checked, as the run's start records it. */
  async admitRequest(request: { webhook?: string; principal: Principal }): Promise<{ webhook?: RunWebhookWrite }> {
    return request.webhook === undefined ? {} : { webhook: await this.admit(request.webhook, request.principal) };
  }

  /** Starts the sweep (only with a secret: a process that cannot sign leaves webhooks to one that can). */
  start(): void {
    if (!this.enabled || this.sweepTimer) return;
    void this.sweep();
    this.sweepTimer = setInterval(() => void this.sweep(), this.deps.sweepMs);
    this.sweepTimer.unref();
  }

  /** The run has ended in this process: its webhook (if any) is attempted now. */
  runEnded(runId: string): void {
    if (!this.enabled || this.stopping.signal.aborted) return;
    void this.claimAndSend(runId);
  }

  /** One pass: claims due webhooks (up to the free slots) and attempts them. */
  sweep(): Promise<void> {
    this.sweeping ??= this.claimAndSend(undefined).finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  /** Stops sweeping and retrying; attempts under way are stopped (they count, and another process goes on). */
  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    this.stopping.abort();
    await this.sweeping;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private async claimAndSend(runId: string | undefined): Promise<void> {
    const config = this.enabled;
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (!config || free <= 0 || this.stopping.signal.aborted) return;
    let claimed: RunWebhookRecord[];
    try {
      claimed = await this.deps.store.claimRunWebhooks(
        { owner: this.deps.owner, ttlMs: config.timeoutMs + CLAIM_MARGIN_MS },
        { ...(runId ? { runId } : {}), limit: free },
      );
    } catch (error) {
      this.logger.warn('webhooks not claimed', { error: String(error) });
      return;
    }
    await Promise.allSettled(
      claimed.map((webhook) => {
        const attempt = this.attempt(webhook, config).finally(() => this.inFlight.delete(webhook.runId));
        this.inFlight.set(webhook.runId, attempt);
        return attempt;
      }),
    );
  }

  /** One claimed attempt: send (unless attempts are spent or the requester lost the run), then record the outcome. */
  private async attempt(webhook: RunWebhookRecord, config: WebhooksConfig & { secret: string }): Promise<void> {
    const { store } = this.deps;
    let outcome: WebhookAttemptOutcome;
    try {
      outcome = await this.send(webhook, config);
    } catch (error) {
      this.logger.warn('webhook attempt failed', { run_id: webhook.runId, error: String(error) });
      outcome = this.retryOrFail(webhook, config, { kind: 'network', error: 'The webhook could not be prepared.' });
    }
    let recorded: RunWebhookRecord | undefined;
    try {
      recorded = await store.recordWebhookAttempt(webhook.runId, this.deps.owner, outcome);
    } catch (error) {
      // The claim expires and another attempt is made: the receiver deduplicates by the event id.
      this.logger.warn("webhook's attempt not recorded", { run_id: webhook.runId, error: String(error) });
      return;
    }
    if (!recorded) return;
    this.logger.info('webhook attempt', {
      run_id: webhook.runId,
      attempt: recorded.attempts,
      state: recorded.state,
      ...(recorded.lastStatus ? { status: recorded.lastStatus } : {}),
    });
    if (recorded.state === 'pending') this.retryLater(webhook.runId, outcome.retryInMs ?? 0);
    else await this.audit(webhook, recorded);
  }

  private async send(
    webhook: RunWebhookRecord,
    config: WebhooksConfig & { secret: string },
  ): Promise<WebhookAttemptOutcome> {
    const { store } = this.deps;
    if (webhook.attempts > config.maxAttempts)
      return { state: 'failed', lastError: `Gave up after ${config.maxAttempts} attempts.` };
    const run = await store.getRun(webhook.runId);
    if (!run) return { state: 'failed', lastError: 'The run no longer exists.' };
    // The payload is what the requester may read now: the run (its thread's owner, or an admin) and its evidence.
    const reader = await currentPrincipal(store, webhook.requester);
    const thread = await store.getThread(run.threadId);
    if (!thread || (thread.owner !== reader.id && !isAdmin(reader)))
      return { state: 'failed', lastError: 'Whoever asked for the webhook can no longer read the run.' };
    const sentAt = new Date();
    const body = await webhookPayload(
      store,
      { run, eventId: webhook.eventId, reader, maxBytes: config.maxPayloadBytes },
      sentAt,
    );
    const result = await postWebhook(
      webhook.url,
      body,
      {
        'user-agent': 'Evident-Webhooks/1',
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(config.secret, body, Math.floor(sentAt.getTime() / 1000)),
        [WEBHOOK_EVENT_ID_HEADER]: webhook.eventId,
        'X-Evident-Event': 'run.ended',
        'X-Evident-Attempt': String(webhook.attempts),
      },
      {
        policy: config,
        timeoutMs: config.timeoutMs,
        maxResponseBytes: config.maxResponseBytes,
        signal: this.stopping.signal,
        ...(this.deps.resolve ? { resolve: this.deps.resolve } : {}),
      },
    );
    if (result.kind === 'response' && result.status >= 200 && result.status < 300)
      return { state: 'delivered', lastStatus: result.status };
    if (result.kind === 'refused') return { state: 'failed', lastError: result.error };
    if (result.kind === 'response' && result.status >= 300 && result.status < 400)
      return {
        state: 'failed',
        lastStatus: result.status,
        lastError: 'The receiver answered with a redirect; redirects are not followed.',
      };
    if (!retryable(result))
      return {
        state: 'failed',
        ...(result.kind === 'response' ? { lastStatus: result.status } : {}),
        lastError: `The receiver refused the webhook (HTTP ${result.kind === 'response' ? result.status : '?'}).`,
      };
    return this.retryOrFail(webhook, config, result);
  }

  private retryOrFail(
    webhook: RunWebhookRecord,
    config: WebhooksConfig,
    result: WebhookPostResult,
  ): WebhookAttemptOutcome {
    const status = result.kind === 'response' ? { lastStatus: result.status } : {};
    const error =
      result.kind === 'response' ? `The receiver answered HTTP ${result.status}.` : (result as { error: string }).error;
    if (webhook.attempts >= config.maxAttempts)
      return { state: 'failed', ...status, lastError: `${error} Gave up after ${webhook.attempts} attempts.` };
    const retryAfter = result.kind === 'response' ? result.retryAfterMs : undefined;
    return {
      state: 'pending',
      ...status,
      lastError: error,
      retryInMs: backoffMs(webhook.attempts, config, this.random, retryAfter),
    };
  }

  /** The next attempt of a webhook this process tried, when it is due (any process's sweep may take it first). */
  private retryLater(runId: string, delayMs: number): void {
    if (this.stopping.signal.aborted) return;
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      void this.claimAndSend(runId);
    }, delayMs + 5);
    timer.unref();
    this.retries.add(timer);
  }

  private async audit(webhook: RunWebhookRecord, recorded: RunWebhookRecord): Promise<void> {
    try {
      const run = await this.deps.store.getRun(webhook.runId);
      await this.deps.store.appendAudit({
        actor: webhook.requester.id,
        action: 'webhook.delivery',
        runId: webhook.runId,
        ...(run ? { threadId: run.threadId } : {}),
        target: new URL(webhook.url).host.slice(0, 200),
        outcome: recorded.state,
      });
    } catch (error) {
      this.logger.error("webhook's audit record not written", { run_id: webhook.runId, error: String(error) });
    }
  }
}
