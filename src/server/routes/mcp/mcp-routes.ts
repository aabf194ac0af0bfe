import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { RunManager } from '../../../runs/run-manager.ts';
import { UnauthorizedError } from '../../../errors/index.ts';
import type { Evident } from '../../../evident.ts';
import type { Logger } from '../../../logging/logger.ts';
import { errorResponse } from '../../error-response.ts';
import { readJson, requestLimits } from '../../read-json.ts';
import type { ServerEnv } from '../../server-env.ts';
import { createMcpServer } from './create-mcp-server.ts';
import { bearerChallenge, MCP_PATH, METADATA_PATHS, protectedResourceMetadata } from './protected-resource-metadata.ts';

export interface McpRouteOptions {
  /** The API's key check (the same as every other route's): its principal is the one every tool runs as. */
  auth: MiddlewareHandler<ServerEnv>;
  logger: Logger;
  /** The OpenID provider's issuer whose access tokens the API accepts, named in the protected-resource metadata. */
  authorizationServer?: string | undefined;
}

const originOf = (c: Context<ServerEnv>) => new URL(c.req.url).origin;

/** The key check's `next`: it only has to finish; whether the request goes on is decided after it. */
const notPost = async () => undefined;

/** No session, so no server-to-client stream (GET) and nothing to end (DELETE): the spec's answer is 405. */
const methodNotAllowed = (c: Context<ServerEnv>) => {
  c.header('Allow', 'POST');
  return c.json(
    {
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST.',
      },
      id: null,
    },
    405,
  );
};

/**
 * MCP over Streamable HTTP at /mcp, stateless: each POST gets its own server and transport, built for the key's
 * principal, and a JSON answer. No or a bad key: 401 with the protected-resource metadata's URL (RFC 9728), which
 * is served without a key. No session means no server-to-client stream: GET and DELETE are 405.
 */
export function mcpRoutes(evident: Evident, runs: RunManager, options: McpRouteOptions): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  for (const path of METADATA_PATHS)
    app.get(path, (c) => c.json(protectedResourceMetadata(originOf(c), options.authorizationServer)));

  app.use(MCP_PATH, async (c, next) => {
    try {
      await options.auth(c, notPost);
    } catch (error) {
      if (!UnauthorizedError.isInstance(error)) throw error;
      const { status, body } = errorResponse(error);
      c.header('WWW-Authenticate', bearerChallenge(originOf(c)));
      return c.json(body, status);
    }
    if (c.req.method !== 'POST') return methodNotAllowed(c);
    await next();
  });

  app.post(MCP_PATH, async (c) => {
    // Stateless (no session id generator). The server's one JSON reader: the body's byte and depth limits apply before the SDK sees it.
    const body = await readJson(c, z.unknown());
    const server = createMcpServer(
      { evident, runs, principal: c.get('principal'), limits: requestLimits(c) },
      options.logger,
    );
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, { parsedBody: body });
    } finally {
      // The JSON answer is complete once handleRequest resolves: nothing of this request's server outlives it.
      await server.close();
    }
  });

  return app;
}
