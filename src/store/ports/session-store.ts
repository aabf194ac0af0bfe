/** How a session was opened: by pasting an API key, or through the OpenID Connect provider. */
export type SignInMethod = 'key' | 'oidc';
export const SIGN_IN_METHODS: readonly SignInMethod[] = ['key', 'oidc'];

/**
 * A browser session as listed and checked. Its token (the cookie's value) is never stored, only its SHA-256 hash;
 * `id` is a separate public id an admin revokes it by. Permissions are not part of it: the user is read at each use.
 */
export interface SessionRecord {
  id: string;
  user: string;
  via: SignInMethod;
  createdAt: string;
  /** The absolute end of the session, whatever its use. */
  expiresAt: string;
  lastSeenAt: string;
  /** When it ends if unused: `lastSeenAt` plus the idle timeout it was opened with. */
  idleExpiresAt: string;
  /** The secret the signed-in UI sends in `x-csrf-token` on state-changing requests. */
  csrfToken: string;
  /** The provider's ID token, kept for RP-initiated logout (OIDC sessions only). */
  idToken?: string;
}

export interface SessionCreate {
  user: string;
  via: SignInMethod;
  /** The absolute lifetime from now, in milliseconds. */
  ttlMs: number;
  /** The idle timeout, in milliseconds: a session unused for this long ends. */
  idleMs: number;
  idToken?: string;
}

export interface SessionQuery {
  /** One user's sessions; all users' when absent (admins). */
  user?: string;
  /** At most `MAX_SESSION_PAGE`. */
  limit: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** A one-time OpenID Connect sign-in state: what the callback needs to finish the flow it started. */
export interface SignInState {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where the UI goes after signing in (a path of this server). */
  returnTo: string;
  expiresAt: string;
}

/** Server-side browser sessions, and the one-time states of the OpenID Connect sign-in flow. */
export interface SessionStore {
  /** Opens a session for an existing user (`not_found` otherwise); the token is returned this once. */
  createSession(create: SessionCreate): Promise<{ token: string; session: SessionRecord }>;
  /**
   * The live session of a token, its last use moved to `at` (default now); undefined for an unknown, revoked,
   * expired or idle-expired token.
   */
  findSession(token: string, at?: Date): Promise<SessionRecord | undefined>;
  /** Live sessions, newest first, a page at a time. */
  listSessions(query: SessionQuery): Promise<{ sessions: SessionRecord[]; nextCursor: string | null }>;
  /** Ends a session at once; the ended session, or undefined when there was none with that id. */
  revokeSession(id: string): Promise<SessionRecord | undefined>;
  /** Ends every session of a user at once; how many were ended. */
  revokeUserSessions(user: string): Promise<number>;
  /** Deletes the sessions and sign-in states that have expired by `at` (default now); how many rows went. */
  sweepExpiredSessions(at?: Date): Promise<number>;

  /** Records a sign-in state until `expiresAt`. A state already recorded is refused (`invalid_input`). */
  saveSignInState(state: SignInState): Promise<void>;
  /** Deletes and returns a state in one step: undefined when absent, expired or already taken (a replay gets nothing). */
  takeSignInState(state: string, at?: Date): Promise<SignInState | undefined>;
}
