import type { PrincipalStore, UserRecord } from './ports/principal-store.ts';
import type { SessionStore } from './ports/session-store.ts';

/**
 * Sets whether a user may act. A deactivation also ends their browser sessions: each request already refuses an
 * inactive user, but a session left open would work again on reactivation, which the deactivation meant to end.
 */
export async function setUserActivity(
  store: PrincipalStore & Pick<SessionStore, 'revokeUserSessions'>,
  name: string,
  active: boolean,
): Promise<UserRecord | undefined> {
  const user = await store.setUserActive(name, active);
  if (user && !active) await store.revokeUserSessions(name);
  return user;
}
