import * as client from 'openid-client';

/** The cookies one browser holds, by name (paths and domains aside: tests talk to two hosts with separate jars). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Keeps the `Set-Cookie`s of a response; a cookie set empty or expired is dropped. */
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** One request without following redirects, with the jar's cookies, keeping the answer's. */
export async function send(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header();
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.take(response);
  return response;
}

const locationOf = (response: Response, base: string): string => {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect from ${base}, got ${response.status}`);
  return new URL(location, base).href;
};

/**
 * Goes through the test provider's dev login form as `login` (any password) from its authorization URL, and
 * returns the URL the provider sends the browser back to (the callback with `code`, `state` and `iss`), unfollowed.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(redirectUri)) return new URL(url);
    const response = await send(jar, url);
    if (response.status >= 300 && response.status < 400) {
      url = locationOf(response, url);
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${page.slice(0, 300)}`);
    const action = page.match(/<form[^>]*action="([^"]+)"/)?.[1];
    const prompt = page.match(/name="prompt" value="([^"]+)"/)?.[1];
    if (!action || !prompt) throw new Error(`no interaction form at ${url}: ${page.slice(0, 300)}`);
    const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    const posted = await send(jar, new URL(action, url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    url = locationOf(posted, url);
  }
  throw new Error('the provider did not send the browser back');
}

/** A sign-in started at Evident: the browser's jar (holding the state cookie) and the provider URL it is sent to. */
export interface StartedSignIn {
  jar: CookieJar;
  authorizationUrl: URL;
}

export async function startEvidentSignIn(evidentUrl: string, returnTo = '/'): Promise<StartedSignIn> {
  const jar = new CookieJar();
  const response = await send(jar, `${evidentUrl}/auth/oidc/login?return_to=${encodeURIComponent(returnTo)}`);
  if (response.status !== 302) throw new Error(`login answered ${response.status}: ${await response.text()}`);
  return { jar, authorizationUrl: new URL(locationOf(response, evidentUrl)) };
}

/** A whole sign-in at Evident as `login`: the jar then holds the session cookie. */
export async function signInToEvident(
  evidentUrl: string,
  login: string,
  returnTo = '/',
): Promise<{ jar: CookieJar; response: Response }> {
  const started = await startEvidentSignIn(evidentUrl, returnTo);
  const redirectUri = `${evidentUrl}/auth/oidc/callback`;
  const callback = await signInAtProvider(started.authorizationUrl.href, login, redirectUri);
  const response = await send(started.jar, callback.href);
  return { jar: started.jar, response };
}

/**
 * An access token for `login` from the provider's token endpoint, by the authorization code flow with PKCE of the
 * given client, as an agent would get one (the redirect is captured, not served).
 */
export async function providerAccessToken(options: {
  issuer: string;
  clientId: string;
  redirectUri: string;
  login: string;
  scope?: string;
}): Promise<{ access_token: string; id_token?: string }> {
  const config = await client.discovery(new URL(options.issuer), options.clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri,
    scope: options.scope ?? 'openid profile groups',
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const callback = await signInAtProvider(url.href, options.login, options.redirectUri);
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { access_token: tokens.access_token, ...(tokens.id_token ? { id_token: tokens.id_token } : {}) };
}
