import { useEffect, useState } from 'react';
import type { AuthProvidersJson } from '../../../src/server/schemas/auth-providers-json.ts';

type OidcProvider = NonNullable<AuthProvidersJson['oidc']>;

/**
 * "Sign in with <provider>", shown when the server has an OpenID provider configured (`GET /v1/auth/providers`):
 * a link to the server's login route, which comes back to the page the browser is on.
 */
export function ProviderSignIn() {
  const [provider, setProvider] = useState<OidcProvider | undefined>();
  useEffect(() => {
    const controller = new AbortController();
    fetch('/v1/auth/providers', { signal: controller.signal, headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? (response.json() as Promise<AuthProvidersJson>) : undefined))
      .then((providers) => setProvider(providers?.oidc ?? undefined))
      // Without the answer the key form alone is shown, as on a server without a provider.
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  if (!provider) return null;
  const returnTo = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  const href = `${provider.login_url}?return_to=${encodeURIComponent(returnTo)}`;
  return (
    <div className="provider-sign-in">
      <a className="button primary" href={href} data-testid="provider-sign-in">
        Sign in with {provider.display_name}
      </a>
      <p className="muted">or with an API key:</p>
    </div>
  );
}
