import { Hono } from 'hono';
import type { Evident } from '../evident.ts';
import { RouteNotFoundError, TooManyRunsError } from '../errors/index.ts';
import { silentLogger, type Logger } from '../logging/logger.ts';
import { authenticate } from './auth.ts';
import { secureHeaders } from './secure-headers.ts';
import { browserSessions } from './session-cookie.ts';
import { authProvidersRoutes } from './oidc/auth-providers-routes.ts';
import { oidcServer } from './oidc/oidc-server.ts';
import { oidcOffRoutes } from './oidc/oidc-routes.ts';
import { sessionRoutes, signInRoutes } from './routes/session-routes.ts';
import { errorResponse } from './error-response.ts';
import { auditRoutes } from './routes/audit-routes.ts';
import { feedbackRoutes } from './routes/feedback-routes.ts';
import { docsRoutes } from './routes/docs-routes.ts';
import { documentFileRoutes } from './routes/document-file-routes.ts';
import { documentRoutes } from './routes/document-routes.ts';
import { healthRoutes } from './routes/health-routes.ts';
import { meRoutes } from './routes/me-routes.ts';
import { memoryRoutes } from './routes/memory-routes.ts';
import { storeAclRoutes } from './routes/store-acl-routes.ts';
import { storeRoutes } from './routes/langgraph/store-routes.ts';
import { searchRoutes } from './routes/search-routes.ts';
import { userRoutes } from './routes/user-routes.ts';
import { userStatusRoutes } from './routes/user-status-routes.ts';
import { scimRoutes } from './routes/scim/scim-routes.ts';
import { webRoutes } from './routes/web-routes.ts';
import { webhookRoutes } from './routes/webhook-routes.ts';
import type { ServerEnv } from './server-env.ts';
import { assistantRoutes } from './routes/langgraph/assistant-routes.ts';
import { runRoutes } from './routes/langgraph/run-routes.ts';
import { runBatchRoutes } from './routes/langgraph/run-batch-routes.ts';
import { runJoinRoutes } from './routes/langgraph/run-join-routes.ts';
import { cronRoutes } from './routes/langgraph/cron-routes.ts';
import { cronHistoryRoutes } from './routes/cron-history-routes.ts';
import { cronServiceOf } from './cron-scheduling.ts';
import { threadRoutes } from './routes/langgraph/thread-routes.ts';
import { threadManageRoutes } from './routes/langgraph/thread-manage-routes.ts';
import type { AgentRuntime } from '../agent/agent-runtime.ts';
import { chatCompletionsRoutes } from './routes/chat-completions-routes.ts';
import { mcpRoutes } from './routes/mcp/mcp-routes.ts';

export interface AppDeps {
  evident: Evident;
  /** Overrides `evident.config.adminKey` (tests). */
  adminKey?: string;
  logger?: Logger;
  /** The agents: with them the app serves the LangGraph API (assistants, threads, runs) at its root. */
  agents?: AgentRuntime;
  /** Interval of SSE heartbeat comments (default 5 s). */
  heartbeatMs?: number;
  /** Folders the file route serves originals from besides `config.documentRoots` (the sample corpus, watched folders). */
  documentRoots?: readonly string[];
}

/** The LangGraph API lives at the root, as LangGraph clients expect (`new Client({ apiUrl: <server> })`). */
const LANGGRAPH_PATHS = ['/assistants', '/assistants/*', '/threads', '/threads/*', '/runs', '/runs/*'];

/** The HTTP API over one Evident. Every `/v1` route needs a key; the principal it maps to is passed to every store call. */
export function createApp(deps: AppDeps): Hono<ServerEnv> {
  const { evident } = deps;
  const logger = deps.logger ?? silentLogger;
  const app = new Hono<ServerEnv>();
  // First, so every route (and the one JSON reader, read-json.ts) works within the configured request limits.
  app.use('*', async (c, next) => {
    c.set('limits', evident.config.limits);
    await next();
  });
  app.use('*', secureHeaders());
  app.route('/', healthRoutes());
  app.route('/', docsRoutes());
  // SCIM provisioning checks its own token (no user's key, no session opens it).
  app.route('/scim/v2', scimRoutes(evident));
  const adminKey = deps.adminKey ?? evident.config.adminKey;
  const sessions = evident.config.sessions;
  // OpenID Connect: sign-in routes, and the provider's access tokens as bearer tokens (with oidc.audience).
  const oidc = evident.config.oidc
    ? oidcServer({
        oidc: evident.config.oidc,
        store: evident.store,
        sessions: browserSessions(evident.store, sessions),
        logger,
      })
    : undefined;
  const auth = authenticate({ store: evident.store, adminKey, sessions, accessTokens: oidc?.tokenResolver });
  // Before the /v1 key check: the sign-in screen asks how one may sign in before anyone has.
  app.route('/v1', authProvidersRoutes(evident.config.oidc));
  app.route('/', oidc?.routes ?? oidcOffRoutes(browserSessions(evident.store, sessions)));
  // The key-paste sign-in, before the /v1 key check: the key it exchanges for a session cookie may be in its body.
  app.route('/v1', signInRoutes(evident, { settings: sessions, adminKey }));
  // Before the /v1 key check: the OpenAI-compatible routes check the key themselves, to answer in OpenAI's error shape.
  if (deps.agents)
    app.route(
      '/v1',
      chatCompletionsRoutes(deps.agents.runs, evident.store, { auth, heartbeatMs: deps.heartbeatMs ?? 5_000, logger }),
    );
  // MCP (Streamable HTTP) checks the key itself, to answer a missing one with the protected-resource metadata's URL.
  if (deps.agents)
    app.route(
      '/',
      mcpRoutes(evident, deps.agents.runs, { auth, logger, authorizationServer: oidc?.authorizationServer }),
    );
  app.use('/v1/*', auth);
  if (deps.agents) {
    const { runs } = deps.agents;
    for (const path of LANGGRAPH_PATHS) app.use(path, auth);
    app.route('/', assistantRoutes(deps.agents));
    app.route('/', threadRoutes(runs, evident.store));
    app.route('/', threadManageRoutes(runs, evident.store));
    app.route('/', runRoutes(runs, evident.store, { heartbeatMs: deps.heartbeatMs ?? 5_000 }));
    app.route('/', runJoinRoutes(runs, evident.store, { heartbeatMs: deps.heartbeatMs ?? 5_000 }));
    app.route(
      '/',
      runBatchRoutes(runs, {
        maxBatchRuns: evident.config.runs.maxConcurrentPerUser,
        setting: 'runs.maxConcurrentPerUser (EVIDENT_RUNS_MAX_CONCURRENT_PER_USER)',
      }),
    );
    // Scheduled runs: the cron routes (LangGraph's) and each cron's tick history (Evident's).
    const crons = cronServiceOf(evident, deps.agents);
    app.route('/', cronRoutes(crons));
    app.route('/v1', cronHistoryRoutes(crons));
  }
  app.route('/v1', meRoutes());
  app.route('/v1', sessionRoutes(evident, sessions));
  app.route('/v1', searchRoutes(evident));
  app.route('/v1', documentRoutes(evident, { logger }));
  app.route('/v1', documentFileRoutes(evident, deps.documentRoots));
  app.route('/v1', memoryRoutes(evident));
  app.route('/v1', storeAclRoutes(evident));
  // LangGraph's Store API at the root, as the SDK calls it; it needs no agents (the memory store is the store's).
  app.use('/store/*', auth);
  app.route('/', storeRoutes(evident));
  app.route('/v1', userRoutes(evident));
  app.route('/v1', userStatusRoutes(evident));
  app.route('/v1', auditRoutes(evident));
  app.route('/v1', webhookRoutes(evident.store));
  // Ratings of runs' answers: the rated answer is read from the run's events, so they need the run engine.
  if (deps.agents) app.route('/v1', feedbackRoutes(evident, deps.agents.runs));
  app.route('/', webRoutes());
  app.notFound((c) => {
    const { status, body } = errorResponse(new RouteNotFoundError(c.req.method, c.req.path));
    return c.json(body, status);
  });
  app.onError((error, c) => {
    const { status, body } = errorResponse(error);
    if (TooManyRunsError.isInstance(error)) c.header('Retry-After', String(error.retryAfterSeconds));
    if (status >= 500)
      logger.error('request failed', { path: c.req.path, code: body.error.code, error: String(error) });
    return c.json(body, status);
  });
  return app;
}
