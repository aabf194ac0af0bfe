import { z } from 'zod';

/** Loopback hosts, where an `http:` issuer or redirect is allowed (a provider or server on this machine). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `https:`, or `http:` on a loopback host only. */
const secureOrLoopback = (value: string): boolean => {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
};

const httpsUrl = (what: string) =>
  z
    .string()
    .max(2048)
    .refine(secureOrLoopback, `${what} must be an https:// URL (http:// only on 127.0.0.1 or localhost)`);

/** A claim name: what a provider puts in its tokens (`preferred_username`, `groups`, `roles`, a URI for custom ones). */
const claimName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, 'a claim name is printable ASCII without spaces');

/**
 * OpenID Connect sign-in (`EVIDENT_OIDC_*`): the provider's issuer (discovery at
 * `<issuer>/.well-known/openid-configuration`), Evident's client there, which claims name the user, carry the groups
 * and make an admin, and the audience of the provider's access tokens accepted as bearer tokens on the API and MCP.
 * A client without a secret is a public client: it authenticates with PKCE alone. See docs/sign-in.md.
 */
export const oidcSchema = z
  .object({
    issuer: httpsUrl('oidc.issuer').describe(
      "The provider's issuer URL (`EVIDENT_OIDC_ISSUER`), exactly as its discovery document states it.",
    ),
    clientId: z.string().min(1).max(512).describe("Evident's client id at the provider (`EVIDENT_OIDC_CLIENT_ID`)."),
    clientSecret: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe(
        "Evident's client secret (`EVIDENT_OIDC_CLIENT_SECRET`), sent with `client_secret_basic`. Unset: a public client, authenticated by PKCE alone.",
      ),
    redirectUri: httpsUrl('oidc.redirectUri')
      .optional()
      .describe(
        'The callback URL registered at the provider (`EVIDENT_OIDC_REDIRECT_URI`). Unset: `<publicUrl>/auth/oidc/callback`.',
      ),
    publicUrl: httpsUrl('oidc.publicUrl')
      .optional()
      .describe(
        "The URL people reach Evident at (`EVIDENT_OIDC_PUBLIC_URL`), e.g. `https://evident.example.com`: the callback and the provider's return after sign-out are built on it.",
      ),
    scopes: z
      .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'a scope has no spaces or quotes'))
      .min(1)
      .max(32)
      .default(['openid', 'profile', 'email'])
      .refine((scopes) => scopes.includes('openid'), 'oidc.scopes must include openid')
      .describe('Scopes asked for at sign-in (`EVIDENT_OIDC_SCOPES`, comma-separated); `openid` is required.'),
    userClaim: claimName
      .default('preferred_username')
      .describe(
        "The ID-token claim that names the Evident user (`EVIDENT_OIDC_USER_CLAIM`): `preferred_username`, `email` or `sub`. The value must be a valid user name (letters, digits, '.', '_', '@', '-').",
      ),
    groupsClaim: claimName
      .default('groups')
      .describe(
        "The claim that carries the user's groups (`EVIDENT_OIDC_GROUPS_CLAIM`); they replace the user's groups at each sign-in.",
      ),
    groupsFromToken: z
      .boolean()
      .default(true)
      .describe(
        "Whether sign-in sets the user's groups from the groups claim (`EVIDENT_OIDC_GROUPS_FROM_TOKEN`). `false` for a provider without one (Google): groups are then kept as an administrator or SCIM set them, and `adminGroup` is not used.",
      ),
    adminGroup: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe(
        'Members of this group (in the groups claim) get the admin role at sign-in, and lose it at a sign-in without it (`EVIDENT_OIDC_ADMIN_GROUP`). Unset: sign-in never changes roles.',
      ),
    audience: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe(
        "The `aud` the provider's JWT access tokens carry for Evident (`EVIDENT_OIDC_AUDIENCE`). Set: such tokens are accepted as bearer tokens on the API and MCP. Unset: they are not.",
      ),
    clockSkewSeconds: z
      .number()
      .int()
      .min(0)
      .max(300)
      .default(30)
      .describe(
        "Tolerance on tokens' `exp`, `iat` and `nbf` for clocks that differ (`EVIDENT_OIDC_CLOCK_SKEW_SECONDS`).",
      ),
    displayName: z
      .string()
      .min(1)
      .max(64)
      .default('your organisation')
      .describe('The name on the sign-in button, "Sign in with <name>" (`EVIDENT_OIDC_DISPLAY_NAME`).'),
  })
  .strict()
  .refine((oidc) => oidc.redirectUri !== undefined || oidc.publicUrl !== undefined, {
    message:
      'oidc needs redirectUri (EVIDENT_OIDC_REDIRECT_URI) or publicUrl (EVIDENT_OIDC_PUBLIC_URL): the callback URL registered at the provider',
    path: ['redirectUri'],
  });
export type OidcConfig = z.infer<typeof oidcSchema>;

/** The callback URL Evident gives the provider. */
export const oidcRedirectUri = (oidc: OidcConfig): string =>
  oidc.redirectUri ?? `${(oidc.publicUrl as string).replace(/\/+$/, '')}/auth/oidc/callback`;

/** Where the provider sends the browser back after sign-out: the UI's root, on the public URL or the callback's origin. */
export const oidcPostLogoutUri = (oidc: OidcConfig): string =>
  oidc.publicUrl ? `${oidc.publicUrl.replace(/\/+$/, '')}/` : `${new URL(oidcRedirectUri(oidc)).origin}/`;
