import { z } from 'zod';
import { protectedResourceMetadataJson } from '../../routes/mcp/protected-resource-metadata.ts';
import { operation, pathGroup } from '../operation.ts';

const jsonRpc = z.object({ jsonrpc: z.literal('2.0') }).passthrough();

const metadata = (id: string, summary: string) =>
  operation({
    id,
    summary,
    description:
      'OAuth 2.0 Protected Resource Metadata (RFC 9728) of `/mcp`, named by the `WWW-Authenticate` header of its 401. ' +
      'Bearer tokens are Evident API keys (`evident keys create <user>`) and, when `oidc.audience` is set, the OpenID ' +
      "provider's JWT access tokens: then `authorization_servers` names the provider's issuer; otherwise none is named.",
    access: 'public',
    responses: { 200: { description: 'The metadata document.', json: protectedResourceMetadataJson } },
  });

export const mcpPaths = pathGroup(
  {
    name: 'MCP',
    description: "The Model Context Protocol server (Streamable HTTP, stateless) as the key's principal.",
  },
  {
    '/mcp': {
      post: operation({
        id: 'mcp',
        summary: 'MCP JSON-RPC (Streamable HTTP)',
        description:
          'One JSON-RPC message (or batch) of the Model Context Protocol, answered as JSON: tools `search`, `ask`, `table_query`, ' +
          '`list_documents`, `list_tables`; resources `evident://documents/{doc_id}` and `evident://chunks/{chunk_id}`; prompt ' +
          "`cited_answer`. Every call acts as the key's principal. Send `Accept: application/json, text/event-stream`. Stateless: " +
          'GET and DELETE answer 405. Without a valid key: 401 with `WWW-Authenticate: Bearer resource_metadata="…"`.',
        access: 'key',
        json: jsonRpc,
        responses: {
          200: { description: 'The JSON-RPC response(s).', json: jsonRpc },
          202: { description: 'A notification or response was accepted (no body).' },
        },
      }),
    },
    '/.well-known/oauth-protected-resource/mcp': {
      get: metadata('mcpProtectedResource', 'Protected-resource metadata of /mcp'),
    },
    '/.well-known/oauth-protected-resource': {
      get: metadata('protectedResource', 'Protected-resource metadata (root)'),
    },
  },
);
