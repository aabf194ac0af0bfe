import * as client from 'openid-client';
import type { OidcConfig } from '../../config/oidc-schema.ts';
import { OidcSignInError } from '../../errors/index.ts';

/** How long one request to the provider (discovery, token, JWKS) may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** After a failed discovery, the next request waits at least this long before trying again (no hammering). */
const RETRY_AFTER_FAILURE_MS = 5_000;

const isLoopbackHttp = (issuer: string) => new URL(issuer).protocol === 'http:';

/**
 * The provider's configuration from discovery (`<issuer>/.well-known/openid-configuration`) with Evident's client:
 * fetched on first use and kept; after a failed exchange with the provider (`refresh`), fetched again on next use,
 * so a provider that rotated its endpoints or keys is read anew. `http:` is allowed only for a loopback issuer
 * (the config schema refuses any other).
 */
export class OidcDiscovery {
  private pending: Promise<client.Configuration> | undefined;
  private failedAt = 0;

  constructor(
    private readonly oidc: OidcConfig,
    private readonly retryAfterFailureMs = RETRY_AFTER_FAILURE_MS,
  ) {}

  /** The configuration, discovered once and then cached. Fails with `provider_unreachable` when discovery fails. */
  async configuration(): Promise<client.Configuration> {
    if (!this.pending) {
      if (Date.now() - this.failedAt < this.retryAfterFailureMs)
        throw new OidcSignInError('provider_unreachable', { detail: 'Its discovery document could not be read.' });
      this.pending = this.discover();
      this.pending.catch(() => {
        this.pending = undefined;
        this.failedAt = Date.now();
      });
    }
    return this.pending;
  }

  /** Forgets the cached configuration: the next use discovers again. */
  refresh(): void {
    this.pending = undefined;
  }

  private async discover(): Promise<client.Configuration> {
    const { oidc } = this;
    const auth = oidc.clientSecret ? client.ClientSecretBasic(oidc.clientSecret) : client.None();
    try {
      const metadata: Partial<client.ClientMetadata> = { [client.clockTolerance]: oidc.clockSkewSeconds };
      const config = await client.discovery(new URL(oidc.issuer), oidc.clientId, metadata, auth, {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        ...(isLoopbackHttp(oidc.issuer) ? { execute: [client.allowInsecureRequests] } : {}),
      });
      config.timeout = PROVIDER_TIMEOUT_SECONDS;
      // The ID token's signature is checked against the provider's JWKS even though it came over the token
      // endpoint's TLS connection (OIDC Core 3.1.3.7 would allow skipping it): a forged or altered token is refused.
      client.enableNonRepudiationChecks(config);
      return config;
    } catch (error) {
      throw new OidcSignInError('provider_unreachable', {
        cause: error,
        detail: 'Its discovery document could not be read.',
      });
    }
  }
}
