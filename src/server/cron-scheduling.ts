import type { AgentRuntime } from '../agent/agent-runtime.ts';
import type { LimitsConfig } from '../config/index.ts';
import type { Principal } from '../domain/index.ts';
import type { Evident } from '../evident.ts';
import type { Logger } from '../logging/logger.ts';
import { CronScheduler } from '../runs/crons/cron-scheduler.ts';
import { CronService } from '../runs/crons/cron-service.ts';
import { checkRequestedWebhook } from '../runs/webhooks/run-webhooks.ts';
import type { RunManager } from '../runs/run-manager.ts';
import type { RunRequest } from '../runs/run-request.ts';
import type { CronRecord } from '../store/store.ts';
import { assistantVersionField } from './routes/langgraph/assistant-body.ts';
import { checkCronPayload } from './routes/langgraph/cron-body.ts';
import { runActionOf, runBodySchema, streamModesOf } from './routes/langgraph/run-body.ts';

/**
 * The run request a tick makes: the cron's payload read as the run body a client would send (assistant version,
 * webhook, multitask strategy and stream modes pass through), as the cron's owner as the store has them at the tick.
 */
export function cronRunRequest(
  cron: CronRecord,
  principal: Principal,
  threadId: string,
  limits: LimitsConfig,
): RunRequest {
  const body = runBodySchema.parse({ ...cron.payload, assistant_id: cron.assistantId });
  return {
    agent: cron.assistantId,
    threadId,
    principal,
    action: runActionOf(body, limits),
    createThread: cron.threadId === null,
    surface: 'cron',
    ...assistantVersionField(body),
    ...(body.multitask_strategy ? { multitaskStrategy: body.multitask_strategy } : {}),
    streamModes: streamModesOf(body),
    ...(body.webhook ? { webhook: body.webhook } : {}),
  };
}

/**
 * The crons of one Evident served through its agents: a new cron must name an assistant its creator may run now (a
 * built-in agent, or a stored assistant they may read) and carry a run request a tick could start.
 */
export function cronServiceOf(evident: Evident, agents: Pick<AgentRuntime, 'assistants'>): CronService {
  return new CronService({
    store: evident.store,
    config: evident.config.crons,
    checkRun: async (assistantId, payload, principal) => {
      await agents.assistants.resolve(principal, assistantId);
      checkCronPayload(assistantId, payload, evident.config.limits);
      // A webhook is checked when the cron is made (and again at every tick, as every run's is).
      if (typeof payload.webhook === 'string') await checkRequestedWebhook(evident.config.webhooks, payload.webhook);
    },
  });
}

/** Starts this process's cron scheduler, unless `crons.scheduler` is off; stop it before closing the run engine. */
export function startCronScheduler(evident: Evident, runs: RunManager, logger?: Logger): CronScheduler | undefined {
  if (!evident.config.crons.scheduler) return undefined;
  const scheduler = new CronScheduler({
    store: evident.store,
    runs,
    config: evident.config.crons,
    requestOf: (cron, principal, threadId) => cronRunRequest(cron, principal, threadId, evident.config.limits),
    ...(logger ? { logger } : {}),
  });
  scheduler.start();
  return scheduler;
}
