import type { Context } from 'hono';
import type { ServerEnv } from '../server-env.ts';

/** One started sign-in, kept by the store until the provider sends the browser back (one-time, expiring). */
export interface SignInState {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  expiresAt: string;
}

/**
 * What the OIDC routes need from the sessions: the store's one-time sign-in states, and opening and ending the
 * browser's session (the cookie). `createApp` builds it from the session module and the store.
 */
export interface OidcSessionHooks {
  saveSignInState(state: SignInState): Promise<void>;
  /** Atomic: deletes and returns the state; undefined when absent, expired or already taken. */
  takeSignInState(state: string): Promise<SignInState | undefined>;
  /** Opens a session for `user` (already stored and active) and sets its cookie on the response. */
  startSession(c: Context<ServerEnv>, input: { user: string; idToken?: string }): Promise<void>;
  /** Revokes the request's session, if any, and clears its cookie; returns the ID token it was opened with. */
  endSession(c: Context<ServerEnv>): Promise<{ idToken?: string | undefined } | undefined>;
}
