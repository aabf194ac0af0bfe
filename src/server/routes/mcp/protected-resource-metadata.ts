import { z } from 'zod';

/** Where MCP lives on the server, and the RFC 9728 metadata paths for it (the path-suffixed one first, as clients try it). */
export const MCP_PATH = '/mcp';
export const METADATA_PATHS = [
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource',
] as const;

/** The metadata URL a 401's `WWW-Authenticate` names, for a server reached at `origin`. */
export const metadataUrl = (origin: string): string => `${origin}${METADATA_PATHS[0]}`;

/** `WWW-Authenticate` of a 401 from /mcp (MCP authorization: RFC 9728 §5.1). */
export const bearerChallenge = (origin: string): string =>
  `Bearer realm="evident", resource_metadata="${metadataUrl(origin)}"`;

/**
 * The OAuth 2.0 Protected Resource Metadata (RFC 9728) of /mcp. Evident takes its own API keys as bearer tokens
 * (`evident keys create <user>`), and, when OpenID Connect is configured with an access-token audience, the
 * provider's JWT access tokens: then the provider's issuer is named as the authorization server, so an MCP client
 * can get a token there. Without one, none is named (`authorization_servers` is optional in RFC 9728): a client is
 * configured with a key, and the documentation says where to get one.
 */
export function protectedResourceMetadata(
  origin: string,
  authorizationServer?: string | undefined,
): ProtectedResourceMetadata {
  return {
    resource: `${origin}${MCP_PATH}`,
    ...(authorizationServer ? { authorization_servers: [authorizationServer] } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Evident',
    resource_documentation: `${origin}/docs`,
  };
}

export const protectedResourceMetadataJson = z
  .object({
    resource: z.string().describe('The URL of the MCP endpoint this describes.'),
    authorization_servers: z
      .array(z.string())
      .optional()
      .describe(
        "The OpenID provider's issuer, when the server accepts its access tokens (`oidc.audience`); absent otherwise.",
      ),
    bearer_methods_supported: z.array(z.literal('header')),
    resource_name: z.string(),
    resource_documentation: z.string(),
  })
  .strict();
export type ProtectedResourceMetadata = z.infer<typeof protectedResourceMetadataJson>;
