import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { OidcConfig } from '../../config/oidc-schema.ts';
import type { Principal } from '../../domain/index.ts';
import type { PrincipalStore } from '../../store/ports/principal-store.ts';
import { claimedUserName } from './oidc-claims.ts';
import type { OidcDiscovery } from './oidc-discovery.ts';

/** A provider's access token longer than this is refused unread (Entra's caps its groups claim at 200, well below; Node refuses headers over 16 KiB anyway). */
export const MAX_ACCESS_TOKEN_CHARS = 12_288;
/** Asymmetric signatures only: no `none`, and no HS* (a shared secret would let anyone holding it mint tokens). */
export const ACCESS_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
/** Claims of ID tokens (OIDC Core 2, 3.1.3.6) that access tokens do not carry. */
const ID_TOKEN_ONLY_CLAIMS = ['nonce', 'at_hash', 'c_hash'];
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Resolves a bearer token that is no API key to a principal, or undefined (the request then gets 401). */
export type ProviderTokenResolver = (token: string) => Promise<Principal | undefined>;

const isInactive = (user: object): boolean => (user as { active?: unknown }).active === false;

/**
 * The provider's JWT access tokens as bearer tokens: the signature by a key of the issuer's JWKS (asymmetric
 * algorithms only), the issuer, the configured audience, and `exp`/`nbf` within the clock skew. The claim
 * `oidc.userClaim` names the user, who is read from the store at this moment: absent or deactivated is refused,
 * and the principal carries the stored groups and roles, never the token's. A token never creates a user: people
 * are provisioned by signing in (or by SCIM, or an administrator), so a token minted for another purpose, whose
 * claims Evident never checked at a sign-in, cannot make one.
 */
export function providerTokenResolver(deps: {
  oidc: OidcConfig & { audience: string };
  discovery: OidcDiscovery;
  store: PrincipalStore;
}): ProviderTokenResolver {
  const { oidc, discovery, store } = deps;
  let keys: { uri: string; get: JWTVerifyGetKey } | undefined;
  const keySet = async (): Promise<{ issuer: string; get: JWTVerifyGetKey }> => {
    const metadata = (await discovery.configuration()).serverMetadata();
    const uri = metadata.jwks_uri;
    if (!uri) throw new Error('the provider publishes no jwks_uri');
    if (keys?.uri !== uri) keys = { uri, get: createRemoteJWKSet(new URL(uri), { timeoutDuration: 10_000 }) };
    return { issuer: metadata.issuer, get: keys.get };
  };

  return async (token) => {
    if (token.length > MAX_ACCESS_TOKEN_CHARS || !JWT_SHAPE.test(token)) return undefined;
    let payload: Record<string, unknown>;
    try {
      const { issuer, get } = await keySet();
      ({ payload } = await jwtVerify(token, get, {
        issuer,
        audience: oidc.audience,
        algorithms: ACCESS_TOKEN_ALGORITHMS,
        clockTolerance: oidc.clockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch {
      return undefined;
    }
    // Claims only an ID token carries: an ID token is no access token, even where its audience would pass.
    if (ID_TOKEN_ONLY_CLAIMS.some((claim) => claim in payload)) return undefined;
    let name: string;
    try {
      name = claimedUserName(payload, oidc);
    } catch {
      return undefined;
    }
    const user = await store.getUser(name);
    if (!user || isInactive(user)) return undefined;
    return { id: user.name, groups: [...user.groups], roles: [...user.roles] };
  };
}
