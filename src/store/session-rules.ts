import { createHash, randomBytes } from 'node:crypto';
import { ValidationError } from '../errors/index.ts';
import { SIGN_IN_METHODS, type SessionCreate, type SignInState } from './ports/session-store.ts';

/** The most sessions one page of `listSessions` holds. */
export const MAX_SESSION_PAGE = 200;
/** The most live sessions one user keeps: opening one more ends their oldest. */
export const MAX_SESSIONS_PER_USER = 50;
/** Bounds of what a session and a sign-in state keep. */
export const SESSION_BOUNDS = {
  idTokenChars: 16_384,
  tokenChars: 256,
  stateChars: 512,
  returnToChars: 2048,
  maxLifetimeMs: 366 * 24 * 3_600_000,
} as const;

/** Prefix that makes a leaked session token recognisable to secret scanners and in logs. */
const TOKEN_PREFIX = 'evs_';

/** A new session: its token (the cookie's value, 32 random bytes), its public id and its CSRF secret. */
export function generateSession(): { token: string; id: string; csrfToken: string } {
  return {
    token: TOKEN_PREFIX + randomBytes(32).toString('base64url'),
    id: `ses_${randomBytes(12).toString('hex')}`,
    csrfToken: randomBytes(32).toString('base64url'),
  };
}

/** What backends store and look up instead of a session token or a sign-in state (hex sha256). */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A token too long to be one of ours is not looked up (it cannot match, and hashing it costs). */
export const plausibleToken = (token: string): boolean => token.length > 0 && token.length <= SESSION_BOUNDS.tokenChars;
export const plausibleState = (state: string): boolean => state.length > 0 && state.length <= SESSION_BOUNDS.stateChars;

const positiveMs = (value: number, name: string) => {
  if (!Number.isInteger(value) || value <= 0 || value > SESSION_BOUNDS.maxLifetimeMs)
    throw new ValidationError(`${name} must be a whole number of milliseconds between 1 and one year.`);
};

/** Checks a session to open; returns its times. */
export function sessionTimes(create: SessionCreate, now = new Date()) {
  if (!SIGN_IN_METHODS.includes(create.via)) throw new ValidationError(`Unknown sign-in method "${create.via}".`);
  positiveMs(create.ttlMs, 'A session lifetime');
  positiveMs(create.idleMs, 'A session idle timeout');
  if (
    create.idToken !== undefined &&
    (create.idToken.length === 0 || create.idToken.length > SESSION_BOUNDS.idTokenChars)
  )
    throw new ValidationError(`An ID token kept with a session holds 1 to ${SESSION_BOUNDS.idTokenChars} characters.`);
  const expires = new Date(now.getTime() + create.ttlMs);
  const idle = new Date(Math.min(expires.getTime(), now.getTime() + create.idleMs));
  return { now, expires, idle };
}

/** When a used session's idle end moves to: never past its absolute end. */
export const nextIdleEnd = (at: Date, idleMs: number, expiresAt: Date): Date =>
  new Date(Math.min(expiresAt.getTime(), at.getTime() + idleMs));

/**
 * Whether a use at `at` records itself: a session seen within the last stretch (a quarter of its idle timeout,
 * at most 15 s) is not written again, so a page's burst of requests costs one write.
 */
export const touchDue = (lastSeen: Date, at: Date, idleMs: number): boolean =>
  at.getTime() - lastSeen.getTime() >= Math.min(15_000, Math.floor(idleMs / 4));

/** Checks a sign-in state to save. */
export function assertValidSignInState(state: SignInState): Date {
  const fields: [string, string, number][] = [
    ['state', state.state, SESSION_BOUNDS.stateChars],
    ['nonce', state.nonce, SESSION_BOUNDS.stateChars],
    ['codeVerifier', state.codeVerifier, SESSION_BOUNDS.stateChars],
    ['returnTo', state.returnTo, SESSION_BOUNDS.returnToChars],
  ];
  for (const [name, value, max] of fields) {
    if (typeof value !== 'string' || value.length === 0 || value.length > max)
      throw new ValidationError(`A sign-in state's ${name} holds 1 to ${max} characters.`);
  }
  const expires = new Date(state.expiresAt);
  if (Number.isNaN(expires.getTime())) throw new ValidationError("A sign-in state's expiresAt is not a date.");
  return expires;
}

/** A listing cursor: the sequence number of the last session of the previous page. */
export function parseSessionCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[1-9][0-9]{0,15}$/.test(cursor))
    throw new ValidationError('Invalid sessions cursor.', { hint: 'Pass the next_cursor of the previous page.' });
  return Number(cursor);
}

export function assertSessionPage(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SESSION_PAGE)
    throw new ValidationError(`A page of sessions holds 1 to ${MAX_SESSION_PAGE}.`);
}
