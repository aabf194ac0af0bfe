import { randomUUID } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { ownThread } from '../../runs/run-access.ts';
import type { RunManager } from '../../runs/run-manager.ts';
import { ClientClosedError, ModelNotFoundError } from '../../errors/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { RunLog } from '../../store/store.ts';
import { readJson, requestLimits } from '../read-json.ts';
import type { ServerEnv } from '../server-env.ts';
import { questionFromMessages } from './langgraph/run-body.ts';
import { evidentExtension, replyText } from './openai/completion-content.ts';
import { completionJson, modelJson } from './openai/completion-json.ts';
import { completionParts, type CompletionOutcome } from './openai/completion-parts.ts';
import { assertSupported, completionRequestSchema } from './openai/completion-request.ts';
import { endedWithoutAnswer, runFailureBody, streamCompletion } from './openai/completion-stream.ts';
import { openAiErrorResponse } from './openai/openai-error.ts';

export interface ChatCompletionsRouteOptions {
  /** The API's key check, run by these routes themselves so that a missing or bad key is answered in OpenAI's shape. */
  auth: MiddlewareHandler<ServerEnv>;
  heartbeatMs: number;
  logger: Logger;
}

/** Continues the key owner's thread named by this request header; the response names the thread and run in these. */
export const THREAD_HEADER = 'x-evident-thread-id';
export const RUN_HEADER = 'x-evident-run-id';

/**
 * The OpenAI-compatible API (mounted under /v1): `model` names an agent. Each completion is a run of the RunManager
 * as the key's principal on a new thread (or the own thread named by `x-evident-thread-id`), so it is recorded,
 * permission-filtered and auditable like every run, and can be read again through the LangGraph API.
 */
export function chatCompletionsRoutes(
  runs: RunManager,
  store: RunLog,
  options: ChatCompletionsRouteOptions,
): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  const agentNames = () => [...runs.agents.keys()];
  app.onError((error, c) => {
    const { status, body } = openAiErrorResponse(error);
    if (status >= 500)
      options.logger.error('chat completion failed', { path: c.req.path, code: body.error.code, error: String(error) });
    return c.json(body, status);
  });
  for (const path of ['/models', '/models/*', '/chat/completions']) app.use(path, options.auth);

  app.get('/models', (c) => c.json({ object: 'list', data: agentNames().map(modelJson) }));
  app.get('/models/:model', (c) => {
    const model = c.req.param('model');
    if (!runs.agents.has(model)) throw new ModelNotFoundError(model, agentNames());
    return c.json(modelJson(model));
  });

  app.post('/chat/completions', async (c) => {
    const request = await readJson(c, completionRequestSchema);
    assertSupported(request);
    if (!runs.agents.has(request.model)) throw new ModelNotFoundError(request.model, agentNames());
    const { question, history } = questionFromMessages(request.messages, requestLimits(c));
    const principal = c.get('principal');
    const continued = c.req.header(THREAD_HEADER)?.trim() || undefined;
    // Only the owner continues a thread; anyone else's id reads as missing. Its own history then wins over `messages`.
    if (continued) await ownThread(store, continued, principal);
    const run = await runs.start({
      agent: request.model,
      threadId: continued ?? randomUUID(),
      principal,
      action: { kind: 'ask', question, history },
      createThread: continued === undefined,
      surface: 'openai',
    });
    c.header(THREAD_HEADER, run.threadId);
    c.header(RUN_HEADER, run.runId);
    if (request.stream) {
      return streamCompletion(c, runs, run, {
        heartbeatMs: options.heartbeatMs,
        includeUsage: request.stream_options?.include_usage === true,
        logger: options.logger,
      });
    }
    let outcome: CompletionOutcome | undefined;
    for await (const part of completionParts(runs.events(run.runId, 0, c.req.raw.signal, c.get('principal'))))
      if (part.kind === 'end') outcome = part.outcome;
    // Only a client that went away leaves without an outcome; the run goes on, recorded.
    if (!outcome) throw new ClientClosedError();
    if (endedWithoutAnswer(outcome)) return c.json(runFailureBody(run, outcome), 500);
    return c.json(
      completionJson(
        run,
        replyText(outcome, { threadId: run.threadId, agent: run.agent }),
        evidentExtension(outcome, run),
      ),
    );
  });
  return app;
}
