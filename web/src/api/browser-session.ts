import { apiErrorOfResponse } from './api-error.ts';
import type { CurrentSession } from './wire-types.ts';

/** Where earlier versions of the UI kept the API key. */
const LEGACY_KEY_STORAGE = 'evident.apiKey';

/**
 * The browser's sign-in, by the session cookie the server sets (HttpOnly: this code never sees it). The API key a
 * user pastes is sent once to `POST /v1/sessions` and kept nowhere; a key an earlier version stored is discarded.
 */
export const browserSession = {
  /** Drops a key an earlier version of the UI kept in localStorage: the browser no longer holds keys. */
  discardStoredKey(): void {
    try {
      localStorage.removeItem(LEGACY_KEY_STORAGE);
    } catch {
      // Storage can be off (private modes); there is then nothing to discard.
    }
  },

  /** The session this browser is signed in with, or undefined when it is not (no cookie, or one that ended). */
  async current(): Promise<CurrentSession | undefined> {
    const response = await fetch('/v1/sessions/current', { headers: { accept: 'application/json' } });
    if (response.status === 401) return undefined;
    if (!response.ok) throw await apiErrorOfResponse(response);
    return (await response.json()) as CurrentSession;
  },

  /** Exchanges an API key for a session cookie; throws the server's ApiError (a wrong key: 401) otherwise. */
  async signIn(apiKey: string): Promise<CurrentSession> {
    const response = await fetch('/v1/sessions', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: apiKey }),
    });
    if (!response.ok) throw await apiErrorOfResponse(response);
    return (await response.json()) as CurrentSession;
  },

  /** Ends the session on the server and clears its cookie. An already ended session counts as signed out. */
  async signOut(csrfToken: string): Promise<void> {
    const response = await fetch('/v1/sessions/current', {
      method: 'DELETE',
      headers: { accept: 'application/json', 'x-csrf-token': csrfToken },
    });
    if (!response.ok && response.status !== 401) throw await apiErrorOfResponse(response);
  },
};
